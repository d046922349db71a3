//===- TransformScript.cpp - Apply a transform-dialect script -------------===//

#include "ms/Codegen/CPU/TransformScript.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;

namespace ms {

LogicalResult applyTransformScript(Operation *payload, StringRef script) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(script, payload->getContext(),
                                  "<ms transform script>");
  if (!module)
    return failure();
  transform::TransformOpInterface entry =
      transform::detail::findTransformEntryPoint(*module, ModuleOp());
  if (!entry)
    return failure();
  return transform::applyTransformNamedSequence(
      payload, entry, *module, transform::TransformOptions());
}

} // namespace ms
