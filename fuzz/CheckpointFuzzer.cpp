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
  ms::fuzz::openAndLoadAll<CheckpointFile>(
      ms::fuzz::writeScratchFile(data, size, ".ckpt"));
  return 0;
}
