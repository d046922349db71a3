//===- HostTensorTest.cpp - Tests for HostTensor --------------------------===//

#include "ms/Runtime/Memory/HostTensor.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstring>

using namespace ms::runtime;

namespace {

TEST(HostTensorTest, DTypeHelpers) {
  EXPECT_EQ(dtypeSize(DType::F32), 4u);
  EXPECT_EQ(dtypeSize(DType::F16), 2u);
  EXPECT_EQ(dtypeSize(DType::I32), 4u);
  EXPECT_EQ(dtypeSize(DType::I64), 8u);
  EXPECT_EQ(dtypeName(DType::F32), "f32");
  EXPECT_EQ(dtypeName(DType::F16), "f16");
  EXPECT_EQ(dtypeName(DType::I32), "i32");
  EXPECT_EQ(dtypeName(DType::I64), "i64");
}

TEST(HostTensorTest, DTypeTableIsInEnumOrder) {
  // Python passes dtypes as enum indices; the table must agree with them.
  for (size_t i = 0; i < allDTypes().size(); ++i)
    EXPECT_EQ(static_cast<size_t>(allDTypes()[i].dtype), i);
  EXPECT_EQ(dtypeName(DType::U8), "ui8");
  EXPECT_EQ(dtypeName(DType::Bool), "i1");
  EXPECT_EQ(dtypeSize(DType::Bool), 1u);
  EXPECT_EQ(dtypeSize(DType::BF16), 2u);
  EXPECT_EQ(dtypeFromNpyCode("u1"), DType::U8);
  EXPECT_EQ(dtypeFromNpyCode("c8"), std::nullopt);
  EXPECT_EQ(dtypeFromSafeTensorsName("BOOL"), DType::Bool);
  EXPECT_EQ(dtypeFromSafeTensorsName("F8_E5M2"), std::nullopt);
}

TEST(HostTensorTest, LoadAndStoreElementsOfEveryDType) {
  for (const DTypeInfo &info : allDTypes()) {
    SCOPED_TRACE(info.mlir.str());
    HostTensor t(info.dtype, {3});
    storeElement(t.data(), info.dtype, 0, 1.0);
    storeElement(t.data(), info.dtype, 1, 100.0);
    storeElement(t.data(), info.dtype, 2, 0.0);
    double big = info.kind == DTypeKind::Bool ? 1.0 : 100.0;
    EXPECT_EQ(loadElement(t.data(), info.dtype, 0), 1.0);
    EXPECT_EQ(loadElement(t.data(), info.dtype, 1), big);
    EXPECT_EQ(loadElement(t.data(), info.dtype, 2), 0.0);
  }
  // Signed values widen with their sign, unsigned ones without.
  HostTensor i8(DType::I8, {1}), u8(DType::U8, {1}), i32(DType::I32, {1});
  storeElement(i8.data(), DType::I8, 0, -5);
  storeElement(u8.data(), DType::U8, 0, 250);
  storeElement(i32.data(), DType::I32, 0, -553);
  EXPECT_EQ(loadInteger(i8.data(), DType::I8, 0), -5);
  EXPECT_EQ(loadInteger(u8.data(), DType::U8, 0), 250);
  EXPECT_EQ(loadInteger(i32.data(), DType::I32, 0), -553);
}

TEST(HostTensorTest, HalfAndBfloat16Rounding) {
  EXPECT_EQ(doubleToHalf(1.0), 0x3c00);
  EXPECT_EQ(doubleToHalf(65520.0), 0x7c00); // rounds up to infinity
  EXPECT_EQ(halfToDouble(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(doubleToBfloat16(1.0), 0x3f80);
  // 1 + 2^-8 is halfway between bfloat16 1 and 1 + 2^-7: ties to even.
  EXPECT_EQ(doubleToBfloat16(1.0 + std::ldexp(1.0, -8)), 0x3f80);
  EXPECT_EQ(doubleToBfloat16(1.0 + 3 * std::ldexp(1.0, -8)), 0x3f82);
  EXPECT_EQ(bfloat16ToDouble(0xbf80), -1.0);
}

TEST(HostTensorTest, ShapeString) {
  EXPECT_EQ(shapeString({64, 10}), "[64, 10]");
  EXPECT_EQ(shapeString({7}), "[7]");
  EXPECT_EQ(shapeString({}), "[]");
  EXPECT_EQ(shapeString({0, 3}), "[0, 3]");
}

TEST(HostTensorTest, DefaultIsInvalid) {
  HostTensor t;
  EXPECT_FALSE(t.isValid());
  EXPECT_FALSE(static_cast<bool>(t));
  EXPECT_EQ(t.numElements(), 0);
  EXPECT_EQ(t.byteSize(), 0u);
  EXPECT_EQ(t.data(), nullptr);
  EXPECT_FALSE(t.clone().isValid());
}

TEST(HostTensorTest, AllocatesZeroFilledAlignedStorage) {
  HostTensor t(DType::F32, {3, 5});
  ASSERT_TRUE(t.isValid());
  EXPECT_EQ(t.dtype(), DType::F32);
  EXPECT_EQ(t.rank(), 2u);
  EXPECT_EQ(t.numElements(), 15);
  EXPECT_EQ(t.byteSize(), 60u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data()) % HostTensor::kAlignment, 0u);
  for (int64_t i = 0; i < t.numElements(); ++i)
    EXPECT_EQ(t.dataAs<float>()[i], 0.0f);
}

TEST(HostTensorTest, ZeroElementAndScalarShapes) {
  HostTensor empty(DType::I64, {4, 0, 2});
  EXPECT_TRUE(empty.isValid());
  EXPECT_EQ(empty.numElements(), 0);
  EXPECT_EQ(empty.byteSize(), 0u);
  EXPECT_NE(empty.data(), nullptr);
  EXPECT_EQ(empty.typeString(), "tensor<4x0x2xi64>");
  HostTensor emptyCopy = empty.clone();
  EXPECT_TRUE(emptyCopy.sameTypeAs(empty));

  HostTensor scalar(DType::F16, {});
  EXPECT_EQ(scalar.rank(), 0u);
  EXPECT_EQ(scalar.numElements(), 1);
  EXPECT_EQ(scalar.byteSize(), 2u);
  EXPECT_TRUE(scalar.strides().empty());
  EXPECT_EQ(scalar.typeString(), "tensor<f16>");
}

std::string allocateError(DType dtype, llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<HostTensor> t = HostTensor::allocate(dtype, shape);
  if (t) {
    ADD_FAILURE() << "expected an error allocating " << shapeString(shape);
    return "";
  }
  return llvm::toString(t.takeError());
}

TEST(HostTensorTest, AllocateReportsSizesThatCannotBeHeld) {
  // 2^64 elements, and 2^62 elements whose byte size is 2^64.
  EXPECT_EQ(allocateError(DType::F32, {4294967296, 4294967296}),
            "size overflows");
  EXPECT_EQ(allocateError(DType::F32, {int64_t(1) << 62}), "size overflows");
  EXPECT_EQ(allocateError(DType::I64, {int64_t(1) << 60}), "size overflows");
  EXPECT_EQ(allocateError(DType::F32, {INT64_MAX, INT64_MAX, 0}),
            "size overflows");
  EXPECT_EQ(allocateError(DType::F32, {2, -1}), "negative dimension");
  // 2^50 f32 elements fit in int64 but no process can map 4 PiB.
  EXPECT_EQ(allocateError(DType::F32, {int64_t(1) << 50}),
            "needs 4 PiB, allocation failed");
}

TEST(HostTensorTest, AllocateMatchesTheConstructor) {
  llvm::Expected<HostTensor> t = HostTensor::allocate(DType::F32, {3, 5});
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  EXPECT_EQ(t->numElements(), 15);
  EXPECT_EQ(t->byteSize(), 60u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t->data()) % HostTensor::kAlignment,
            0u);
  for (int64_t i = 0; i < t->numElements(); ++i)
    EXPECT_EQ(t->dataAs<float>()[i], 0.0f);
  // A zero dimension makes any other dimension harmless.
  llvm::Expected<HostTensor> empty =
      HostTensor::allocate(DType::F32, {0, INT64_MAX});
  ASSERT_TRUE(static_cast<bool>(empty));
  EXPECT_EQ(empty->byteSize(), 0u);
  EXPECT_NE(empty->data(), nullptr);
}

TEST(HostTensorTest, CheckedByteSizeAndFormatting) {
  EXPECT_EQ(checkedByteSize(DType::F16, {3, 5}), uint64_t(30));
  EXPECT_EQ(checkedByteSize(DType::F32, {}), uint64_t(4));
  EXPECT_EQ(checkedByteSize(DType::I64, {int64_t(1) << 59, 2}), std::nullopt);
  EXPECT_EQ(checkedByteSize(DType::F32, {-3}), std::nullopt);
  EXPECT_EQ(formatByteSize(512), "512 B");
  EXPECT_EQ(formatByteSize(1536), "1.5 KiB");
  EXPECT_EQ(formatByteSize(uint64_t(32) << 30), "32 GiB");
  EXPECT_EQ(formatByteSize(uint64_t(1) << 52), "4 PiB");
}

TEST(HostTensorTest, Strides) {
  HostTensor t(DType::I32, {2, 3, 4});
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{12, 4, 1}));
  HostTensor v(DType::I32, {5});
  EXPECT_EQ(v.strides(), (std::vector<int64_t>{1}));
}

TEST(HostTensorTest, TypeString) {
  EXPECT_EQ(HostTensor(DType::F32, {64, 10}).typeString(), "tensor<64x10xf32>");
  EXPECT_EQ(HostTensor(DType::I32, {7}).typeString(), "tensor<7xi32>");
  EXPECT_EQ(HostTensor(DType::F32, {}).typeString(), "tensor<f32>");
}

TEST(HostTensorTest, SameTypeAs) {
  HostTensor a(DType::F32, {2, 3});
  EXPECT_TRUE(a.sameTypeAs(HostTensor(DType::F32, {2, 3})));
  EXPECT_FALSE(a.sameTypeAs(HostTensor(DType::F32, {3, 2})));
  EXPECT_FALSE(a.sameTypeAs(HostTensor(DType::I32, {2, 3})));
  EXPECT_FALSE(a.sameTypeAs(HostTensor(DType::F32, {6})));
  EXPECT_FALSE(a.sameTypeAs(HostTensor()));
}

TEST(HostTensorTest, CopiesShareStorage) {
  HostTensor a(DType::I32, {4});
  HostTensor b = a;
  b.dataAs<int32_t>()[2] = 42;
  EXPECT_EQ(a.dataAs<int32_t>()[2], 42);
  EXPECT_EQ(a.data(), b.data());
}

TEST(HostTensorTest, CloneIsDeep) {
  HostTensor a(DType::I64, {2, 2});
  for (int i = 0; i < 4; ++i)
    a.dataAs<int64_t>()[i] = i * 1000000000000LL;
  HostTensor c = a.clone();
  ASSERT_TRUE(c.sameTypeAs(a));
  EXPECT_NE(c.data(), a.data());
  EXPECT_EQ(std::memcmp(c.data(), a.data(), a.byteSize()), 0);
  c.dataAs<int64_t>()[0] = -1;
  EXPECT_EQ(a.dataAs<int64_t>()[0], 0);
}

TEST(HostTensorTest, StorageOutlivesOriginal) {
  HostTensor copy;
  {
    HostTensor original(DType::F32, {3});
    original.dataAs<float>()[1] = 2.5f;
    copy = original;
  }
  EXPECT_EQ(copy.dataAs<float>()[1], 2.5f);
}

} // namespace
