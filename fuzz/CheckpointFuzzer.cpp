//===- CheckpointFuzzer.cpp - Parameter files of either format ------------===//
//
// Opens the input as load_checkpoint and ms-run --params do
// (CheckpointFile: a MindSpore .ckpt or safetensors, told apart by content)
// and loads every tensor it lists.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "ms/Runtime/Formats/Checkpoint.h"

using namespace ms::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = ms::fuzz::writeScratchFile(data, size, ".ckpt");
  auto file = CheckpointFile::open(path);
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
