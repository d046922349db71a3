//===- NpyFuzzer.cpp - The .npy reader ------------------------------------===//
//
// Reads the input as a .npy file and prints the tensor the way ms-run
// --print does (small tensors only, to keep each input cheap).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "ms/Runtime/Formats/Npy.h"
#include "ms/Runtime/Formats/NumpyFormat.h"

using namespace ms::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = ms::fuzz::writeScratchFile(data, size, ".npy");
  auto tensor = readNpy(path);
  if (!tensor) {
    ms::fuzz::ignore(tensor.takeError());
    return 0;
  }
  if (tensor->byteSize() <= 4096)
    (void)formatLikeNumpy(*tensor);
  return 0;
}
