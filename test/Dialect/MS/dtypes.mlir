// Round trip of each dtype group (MSBase.td): data movement takes every
// dtype (MS_AllTensor), numeric ops every number (MS_NumericTensor), float
// ops the floats (MS_FloatTensor).
// RUN: ms-opt %s | ms-opt | FileCheck %s
// RUN: ms-opt %s --mlir-print-op-generic | ms-opt | FileCheck %s

// CHECK-LABEL: func @data_movement
// CHECK: ms.reshape %{{.*}} to [6] : tensor<2x3xi1>
// CHECK: ms.transpose %{{.*}} perm [1, 0] : tensor<2x3xui8>
// CHECK: ms.concat %{{.*}}, %{{.*}} axis 0 : tensor<2x3xi16>, tensor<2x3xi16>
// CHECK: ms.slice %{{.*}} begin [0, 1] end [2, 3] strides [1, 1] : tensor<2x3xbf16>
// CHECK: ms.broadcast_to %{{.*}} to [4, 2, 3] : tensor<2x3xf64>
// CHECK: ms.pad %{{.*}} low [1, 0] high [0, 1] value 1.000000e+00 : tensor<2x3xi8>
// CHECK: ms.gather %{{.*}}, %{{.*}} axis 0 : tensor<2x3xf16>, tensor<4xi32>
// CHECK: ms.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xi1>, tensor<2x3xi64>, tensor<2x3xi64>
// CHECK: ms.cast %{{.*}} to ui8 : tensor<2x3xf64>
// CHECK: ms.flatten %{{.*}} : tensor<2x3x1xi32>
// CHECK: ms.stop_gradient %{{.*}} : tensor<2x3xui8>
func.func @data_movement(%b: tensor<2x3xi1>, %u: tensor<2x3xui8>, %s: tensor<2x3xi16>,
    %bf: tensor<2x3xbf16>, %d: tensor<2x3xf64>, %c: tensor<2x3xi8>, %h: tensor<2x3xf16>,
    %ids: tensor<4xi32>, %l: tensor<2x3xi64>, %i: tensor<2x3x1xi32>) {
  %0 = ms.reshape %b to [6] : tensor<2x3xi1>
  %1 = ms.transpose %u perm [1, 0] : tensor<2x3xui8>
  %2 = ms.concat %s, %s axis 0 : tensor<2x3xi16>, tensor<2x3xi16>
  %3 = ms.slice %bf begin [0, 1] end [2, 3] strides [1, 1] : tensor<2x3xbf16>
  %4 = ms.broadcast_to %d to [4, 2, 3] : tensor<2x3xf64>
  %5 = ms.pad %c low [1, 0] high [0, 1] value 1.0 : tensor<2x3xi8>
  %6 = ms.gather %h, %ids axis 0 : tensor<2x3xf16>, tensor<4xi32>
  %7 = ms.select %b, %l, %l : tensor<2x3xi1>, tensor<2x3xi64>, tensor<2x3xi64>
  %8 = ms.cast %d to ui8 : tensor<2x3xf64>
  %9 = ms.flatten %i : tensor<2x3x1xi32>
  %10 = ms.stop_gradient %u : tensor<2x3xui8>
  return
}

// CHECK-LABEL: func @numeric
// CHECK: ms.add %{{.*}}, %{{.*}} : tensor<4xi8>, tensor<4xi8>
// CHECK: ms.sub %{{.*}}, %{{.*}} : tensor<4xi16>, tensor<4xi16>
// CHECK: ms.mul %{{.*}}, %{{.*}} : tensor<4xi32>, tensor<4xi32>
// CHECK: ms.maximum %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<4xui8>
// CHECK: ms.minimum %{{.*}}, %{{.*}} : tensor<4xi64>, tensor<4xi64>
// CHECK: ms.neg %{{.*}} : tensor<4xf64>
// CHECK: ms.abs %{{.*}} : tensor<4xbf16>
// CHECK: ms.relu %{{.*}} : tensor<4xf16>
// CHECK: ms.reduce_sum %{{.*}} axes [0] : tensor<4xui8>
// CHECK: ms.reduce_max %{{.*}} axes [0] : tensor<4xi8>
// CHECK: ms.matmul %{{.*}}, %{{.*}} : tensor<2x2xi32>, tensor<2x2xi32>
// CHECK: ms.dense %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x2xf64>, tensor<3x2xf64>, tensor<3xf64>
// CHECK: ms.less %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<4xui8>
// CHECK: ms.argmax %{{.*}} axis 0 output_type i64 : tensor<4xi16>
func.func @numeric(%a: tensor<4xi8>, %b: tensor<4xi16>, %c: tensor<4xi32>, %u: tensor<4xui8>,
    %l: tensor<4xi64>, %d: tensor<4xf64>, %bf: tensor<4xbf16>, %h: tensor<4xf16>,
    %m: tensor<2x2xi32>, %x: tensor<2x2xf64>, %w: tensor<3x2xf64>, %bias: tensor<3xf64>) {
  %0 = ms.add %a, %a : tensor<4xi8>, tensor<4xi8>
  %1 = ms.sub %b, %b : tensor<4xi16>, tensor<4xi16>
  %2 = ms.mul %c, %c : tensor<4xi32>, tensor<4xi32>
  %3 = ms.maximum %u, %u : tensor<4xui8>, tensor<4xui8>
  %4 = ms.minimum %l, %l : tensor<4xi64>, tensor<4xi64>
  %5 = ms.neg %d : tensor<4xf64>
  %6 = ms.abs %bf : tensor<4xbf16>
  %7 = ms.relu %h : tensor<4xf16>
  %8 = ms.reduce_sum %u axes [0] : tensor<4xui8>
  %9 = ms.reduce_max %a axes [0] : tensor<4xi8>
  %10 = ms.matmul %m, %m : tensor<2x2xi32>, tensor<2x2xi32>
  %11 = ms.dense %x, %w, %bias : tensor<2x2xf64>, tensor<3x2xf64>, tensor<3xf64>
  %12 = ms.less %u, %u : tensor<4xui8>, tensor<4xui8>
  %13 = ms.argmax %b axis 0 output_type i64 : tensor<4xi16>
  return
}

// CHECK-LABEL: func @floats
// CHECK: ms.div %{{.*}}, %{{.*}} : tensor<4xf64>, tensor<4xf64>
// CHECK: ms.exp %{{.*}} : tensor<4xbf16>
// CHECK: ms.softmax %{{.*}} axis -1 : tensor<4xf16>
// CHECK: ms.reduce_mean %{{.*}} axes [0] : tensor<4xf64>
// CHECK: ms.conv2d %{{.*}}, %{{.*}} pad_mode "valid" : tensor<1x1x3x3xf64>, tensor<1x1x2x2xf64>
// CHECK: ms.max_pool2d %{{.*}} kernel_size [2, 2] : tensor<1x1x3x3xf64>
// CHECK: ms.layer_norm %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>
// CHECK: ms.relu_grad %{{.*}}, %{{.*}} : tensor<4xf64>, tensor<4xf64>
func.func @floats(%d: tensor<4xf64>, %bf: tensor<4xbf16>, %h: tensor<4xf16>,
    %img: tensor<1x1x3x3xf64>, %k: tensor<1x1x2x2xf64>) {
  %0 = ms.div %d, %d : tensor<4xf64>, tensor<4xf64>
  %1 = ms.exp %bf : tensor<4xbf16>
  %2 = ms.softmax %h axis -1 : tensor<4xf16>
  %3 = ms.reduce_mean %d axes [0] : tensor<4xf64>
  %4 = ms.conv2d %img, %k pad_mode "valid" : tensor<1x1x3x3xf64>, tensor<1x1x2x2xf64>
  %5 = ms.max_pool2d %img kernel_size [2, 2] : tensor<1x1x3x3xf64>
  %6 = ms.layer_norm %d, %d, %d : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>
  %7 = ms.relu_grad %d, %d : tensor<4xf64>, tensor<4xf64>
  return
}
