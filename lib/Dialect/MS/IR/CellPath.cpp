//===- CellPath.cpp - The Cell path an op's location names ----------------===//

#include "ms/Dialect/MS/IR/CellPath.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

std::string ms::cellPathOf(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (std::string path = cellPathOf(part); !path.empty())
        return path;
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return cellPathOf(callSite.getCallee());
  return "";
}
