//===- Checkpoint.h - Parameter files in either format ----------*- C++ -*-===//
//
// Parameters are saved as MindSpore's protobuf .ckpt (the default, as in
// MindSpore) or as safetensors (MindSpore 2.4's format="safetensors").
// Readers tell the two apart by content, never by the file's name, so
// `load_checkpoint`, `ms-run --params` and the Python bindings read either.
//
//===----------------------------------------------------------------------===//
#ifndef MS_RUNTIME_FORMATS_CHECKPOINT_H
#define MS_RUNTIME_FORMATS_CHECKPOINT_H

#include "ms/Runtime/Formats/SafeTensors.h"
#include "ms/Runtime/Memory/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ms {
namespace runtime {

enum class CheckpointFormat { MindSpore, SafeTensors };

/// "ckpt" or "safetensors" (MindSpore's format= names).
std::optional<CheckpointFormat> parseCheckpointFormat(llvm::StringRef name);

/// The format of a file's first bytes: safetensors starts with an 8-byte
/// header length that fits the file, then JSON; anything else is read as a
/// .ckpt.
CheckpointFormat detectCheckpointFormat(llvm::StringRef bytes);

/// MindSpore's dtype name of `dtype` ("Float32", "UInt8", "BFloat16", ...).
llvm::StringRef mindsporeTypeName(DType dtype);
/// The dtype of a MindSpore dtype name (also the old spellings "Uint8",
/// ...); none for names ms has no buffers of.
std::optional<DType> dtypeOfMindSporeName(llvm::StringRef name);

/// The tensors of a MindSpore .ckpt file, in file order. Every entry is
/// checked (its type, its dims against its bytes, bool bytes) before any is
/// returned; map tensors and strings are refused by name.
llvm::Expected<std::vector<std::pair<std::string, HostTensor>>>
readMindSporeCheckpoint(llvm::StringRef path);
/// The same, of a file's bytes already read (`path` names it in errors).
llvm::Expected<std::vector<std::pair<std::string, HostTensor>>>
parseMindSporeCheckpoint(llvm::StringRef path, llvm::StringRef bytes);

/// Writes `tensors` as a MindSpore .ckpt, atomically.
llvm::Error writeMindSporeCheckpoint(
    llvm::StringRef path,
    llvm::ArrayRef<std::pair<std::string, HostTensor>> tensors);

/// Writes `tensors` in `format`, atomically.
llvm::Error
writeCheckpoint(llvm::StringRef path,
                llvm::ArrayRef<std::pair<std::string, HostTensor>> tensors,
                CheckpointFormat format);

/// A parameter file of either format, opened once.
class CheckpointFile {
public:
  static llvm::Expected<CheckpointFile> open(llvm::StringRef path);

  CheckpointFormat format() const { return fileFormat; }
  llvm::StringRef path() const { return filePath; }
  bool contains(llvm::StringRef name) const;
  /// Every tensor name: in file order for a .ckpt (as MindSpore loads
  /// it), sorted for safetensors (a JSON object has no order).
  std::vector<std::string> names() const;
  /// Loads `name` with its stored dtype and shape.
  llvm::Expected<HostTensor> load(llvm::StringRef name) const;
  /// Loads `name`, failing unless it has exactly this dtype and shape.
  llvm::Expected<HostTensor> load(llvm::StringRef name, DType dtype,
                                  llvm::ArrayRef<int64_t> shape) const;

private:
  CheckpointFile() = default;

  std::string filePath;
  CheckpointFormat fileFormat = CheckpointFormat::MindSpore;
  std::optional<SafeTensorsFile> safetensors;
  /// A .ckpt's tensors, decoded, in file order, and their index by name.
  std::vector<std::pair<std::string, HostTensor>> tensors;
  std::map<std::string, size_t> index;
};

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_FORMATS_CHECKPOINT_H
