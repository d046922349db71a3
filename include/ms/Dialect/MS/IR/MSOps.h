//===- MSOps.h - The ms dialect ops -----------------------------*- C++ -*-===//
#ifndef MS_DIALECT_MS_IR_MSOPS_H
#define MS_DIALECT_MS_IR_MSOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "ms/Dialect/MS/IR/MSDialect.h"
#include "ms/Dialect/MS/IR/MSGradShapeInference.h"
#include "ms/Dialect/MS/IR/MSIndexingShapes.h"
#include "ms/Dialect/MS/IR/MSOpProperties.h"
#include "ms/Dialect/MS/IR/MSShapeInference.h"

#define GET_OP_CLASSES
#include "ms/Dialect/MS/IR/MSOps.h.inc"

#endif // MS_DIALECT_MS_IR_MSOPS_H
