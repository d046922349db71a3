//===- SafeTensorsFuzzer.cpp - The safetensors reader ---------------------===//
//
// Opens the input as a safetensors file and loads every entry it lists.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "ms/Runtime/Formats/SafeTensors.h"

using namespace ms::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path =
      ms::fuzz::writeScratchFile(data, size, ".safetensors");
  auto file = SafeTensorsFile::open(path);
  if (!file) {
    ms::fuzz::ignore(file.takeError());
    return 0;
  }
  for (const std::string &name : file->names()) {
    auto tensor = file->load(name);
    if (!tensor)
      ms::fuzz::ignore(tensor.takeError());
  }
  return 0;
}
