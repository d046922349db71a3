//===- SafeTensorsFuzzer.cpp - The safetensors reader ---------------------===//
//
// Opens the input as a safetensors file and loads every entry it lists.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "ms/Runtime/Formats/SafeTensors.h"

using namespace ms::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ms::fuzz::openAndLoadAll<SafeTensorsFile>(
      ms::fuzz::writeScratchFile(data, size, ".safetensors"));
  return 0;
}
