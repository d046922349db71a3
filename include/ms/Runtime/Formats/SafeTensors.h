//===- SafeTensors.h - .safetensors reading and writing ---------*- C++ -*-===//
//
// The safetensors format: an 8-byte little-endian header length N, N bytes of
// JSON mapping tensor names to {"dtype", "shape", "data_offsets"}, then the
// raw little-endian data. Offsets are relative to the start of the data.
// Every error is a single line starting with the file path.
//
//===----------------------------------------------------------------------===//

#ifndef MS_RUNTIME_FORMATS_SAFETENSORS_H
#define MS_RUNTIME_FORMATS_SAFETENSORS_H

#include "ms/Runtime/Memory/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
namespace json {
class Value;
} // namespace json
} // namespace llvm

namespace ms {
namespace runtime {

/// An opened, fully validated .safetensors file. The file contents stay
/// mapped for the lifetime of the object (copies share the mapping).
///
/// open() checks every entry's dtype string, shape and offsets before any
/// tensor is read. Dtypes that the format defines but HostTensor cannot hold
/// (e.g. "F64", "BF16") are accepted by open() and reported by load(), so a
/// file mixing them with supported tensors stays usable. Dtype strings the
/// format does not define make open() fail, and so do tensors whose
/// data_offsets overlap and headers nested deeper than 64 levels.
class SafeTensorsFile {
public:
  static llvm::Expected<SafeTensorsFile> open(llvm::StringRef path);
  /// The same, of a file's contents already read (`path` names it in
  /// errors).
  static llvm::Expected<SafeTensorsFile>
  fromBuffer(llvm::StringRef path,
             std::unique_ptr<llvm::MemoryBuffer> contents);

  llvm::StringRef path() const { return filePath; }

  bool contains(llvm::StringRef name) const;

  /// All tensor names, sorted; "__metadata__" is not included.
  std::vector<std::string> names() const;

  /// Loads `name`, failing unless it has exactly the given dtype and shape.
  llvm::Expected<HostTensor> load(llvm::StringRef name, DType expectedDType,
                                  llvm::ArrayRef<int64_t> expectedShape) const;

  /// Loads `name` with its stored dtype and shape.
  llvm::Expected<HostTensor> load(llvm::StringRef name) const;

private:
  struct Entry {
    std::string dtypeString;
    std::optional<DType> dtype; // Unset when HostTensor cannot hold it.
    std::vector<int64_t> shape;
    uint64_t begin = 0;
    uint64_t end = 0;
  };

  SafeTensorsFile() = default;

  /// The header's entry `name`, checked against the data section's size.
  static llvm::Expected<Entry> parseEntry(llvm::StringRef path,
                                          const std::string &name,
                                          const llvm::json::Value &value,
                                          uint64_t dataSize);
  llvm::Expected<const Entry *> lookup(llvm::StringRef name) const;
  llvm::Expected<HostTensor> copyOut(llvm::StringRef name,
                                     const Entry &entry) const;

  std::string filePath;
  std::shared_ptr<llvm::MemoryBuffer> buffer;
  uint64_t dataStart = 0;
  std::map<std::string, Entry> entries;
};

/// Writes `tensors` in the order given with contiguous data offsets. The
/// header is padded with spaces to a multiple of 8 bytes.
llvm::Error
writeSafeTensors(llvm::StringRef path,
                 llvm::ArrayRef<std::pair<std::string, HostTensor>> tensors);

} // namespace runtime
} // namespace ms

#endif // MS_RUNTIME_FORMATS_SAFETENSORS_H
