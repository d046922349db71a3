//===- Checkpoint.cpp - Parameter files in either format ------------------===//

#include "ms/Runtime/Formats/Checkpoint.h"

#include "ms/Support/Error.h"
#include "ms/Support/FileAccess.h"
#include "ms/Support/MemoryBound.h"

#include "BoolBytes.h"
#include "checkpoint.pb.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"

#include <climits>
#include <cstring>

using namespace ms;
using namespace ms::runtime;

namespace {

/// MindSpore's names, in the spelling its writers use today.
struct MindSporeType {
  DType dtype;
  llvm::StringLiteral name;
};
constexpr MindSporeType kTypes[] = {
    {DType::F32, "Float32"}, {DType::F16, "Float16"},
    {DType::BF16, "BFloat16"}, {DType::F64, "Float64"},
    {DType::I8, "Int8"},     {DType::I16, "Int16"},
    {DType::I32, "Int32"},   {DType::I64, "Int64"},
    {DType::U8, "UInt8"},    {DType::U16, "UInt16"},
    {DType::U32, "UInt32"},  {DType::U64, "UInt64"},
    {DType::Bool, "Bool"}};

/// One TensorProto as a HostTensor, or why it cannot be one.
llvm::Expected<HostTensor> decodeTensor(llvm::StringRef path,
                                        const std::string &tag,
                                        const TensorProto &proto) {
  auto fail = [&](const llvm::Twine &why) {
    return fileError(path, "tensor '" + tag + "': " + why);
  };
  std::optional<DType> dtype = dtypeOfMindSporeName(proto.tensor_type());
  if (!dtype)
    return fail("tensor_type '" + proto.tensor_type() +
                "' is not one ms has buffers of");
  std::vector<int64_t> shape(proto.dims().begin(), proto.dims().end());
  std::optional<int64_t> bytes =
      checkedByteSize(dtypeInfo(*dtype).bytes, shape);
  if (!bytes)
    return fail("dims " + shapeString(shape) + " are negative or overflow");
  const std::string &content = proto.tensor_content();
  if (static_cast<uint64_t>(*bytes) != content.size())
    return fail(shapeString(shape) + " " + proto.tensor_type() + " is " +
                llvm::Twine(*bytes) + " bytes, tensor_content has " +
                llvm::Twine(content.size()));
  const auto *data = reinterpret_cast<const uint8_t *>(content.data());
  if (*dtype == DType::Bool)
    if (llvm::Error err = checkBoolBytes(path, "tensor '" + tag + "'", data,
                                         content.size()))
      return std::move(err);
  llvm::Expected<HostTensor> tensor = HostTensor::allocate(*dtype, shape);
  if (!tensor)
    return fail(llvm::toString(tensor.takeError()));
  if (!content.empty())
    std::memcpy(tensor->data(), data, content.size());
  return tensor;
}

/// The message of a .ckpt file's bytes.
llvm::Error parseCheckpoint(llvm::StringRef path, llvm::StringRef bytes,
                            Checkpoint &message) {
  if (bytes.size() > static_cast<size_t>(INT_MAX))
    return fileError(path, "larger than protobuf's 2 GiB message limit");
  // Partial parsing, then our own check of the required fields: protobuf's
  // ParseFromArray would also log to stderr, and an error is one line.
  if (!message.ParsePartialFromArray(bytes.data(),
                                     static_cast<int>(bytes.size())))
    return fileError(path, "not a MindSpore checkpoint (the protobuf "
                           "Checkpoint message does not parse)");
  if (!message.IsInitialized())
    return fileError(path, "not a MindSpore checkpoint (required fields "
                           "are missing: " +
                               message.InitializationErrorString() + ")");
  return llvm::Error::success();
}

} // namespace

std::optional<CheckpointFormat>
ms::runtime::parseCheckpointFormat(llvm::StringRef name) {
  if (name == "ckpt")
    return CheckpointFormat::MindSpore;
  if (name == "safetensors")
    return CheckpointFormat::SafeTensors;
  return std::nullopt;
}

CheckpointFormat ms::runtime::detectCheckpointFormat(llvm::StringRef bytes) {
  // A .ckpt starts with field 1's tag (0x0a) and a varint: read as a
  // little-endian length, those bytes are far beyond the file's size. A
  // safetensors header (even a malformed one, which its reader then
  // names) is a length that fits, then JSON.
  if (bytes.size() < 9)
    return CheckpointFormat::MindSpore;
  uint64_t header = llvm::support::endian::read64le(bytes.data());
  bool json = llvm::StringRef("{[ \t\r\n").contains(bytes[8]);
  return header <= bytes.size() - 8 && json ? CheckpointFormat::SafeTensors
                                            : CheckpointFormat::MindSpore;
}

llvm::StringRef ms::runtime::mindsporeTypeName(DType dtype) {
  for (const MindSporeType &t : kTypes)
    if (t.dtype == dtype)
      return t.name;
  return "";
}

std::optional<DType> ms::runtime::dtypeOfMindSporeName(llvm::StringRef name) {
  for (const MindSporeType &t : kTypes)
    // MindSpore 1.x wrote "Uint8", ...; 2.x writes "UInt8".
    if (t.name == name || t.name.equals_insensitive(name))
      return t.dtype;
  return std::nullopt;
}

llvm::Expected<std::vector<std::pair<std::string, HostTensor>>>
ms::runtime::readMindSporeCheckpoint(llvm::StringRef path) {
  auto buffer = readRegularFile(path);
  if (!buffer)
    return buffer.takeError();
  return parseMindSporeCheckpoint(path, (*buffer)->getBuffer());
}

llvm::Expected<std::vector<std::pair<std::string, HostTensor>>>
ms::runtime::parseMindSporeCheckpoint(llvm::StringRef path,
                                      llvm::StringRef bytes) {
  Checkpoint message;
  if (llvm::Error err = parseCheckpoint(path, bytes, message))
    return std::move(err);
  std::vector<std::pair<std::string, HostTensor>> out;
  llvm::StringSet<> seen;
  for (const Checkpoint::Value &value : message.value()) {
    if (!seen.insert(value.tag()).second)
      return fileError(path, "tensor '" + value.tag() + "' appears twice");
    if (!value.has_tensor())
      return fileError(path, "entry '" + value.tag() +
                                 "' is a map tensor, which ms does not read");
    auto tensor = decodeTensor(path, value.tag(), value.tensor());
    if (!tensor)
      return tensor.takeError();
    out.emplace_back(value.tag(), std::move(*tensor));
  }
  return out;
}

llvm::Error ms::runtime::writeMindSporeCheckpoint(
    llvm::StringRef path,
    llvm::ArrayRef<std::pair<std::string, HostTensor>> tensors) {
  Checkpoint message;
  llvm::StringSet<> seen;
  for (const auto &[name, tensor] : tensors) {
    if (!tensor.isValid())
      return fileError(path, "cannot write invalid (empty) tensor '" + name +
                                 "'");
    if (!seen.insert(name).second)
      return fileError(path, "duplicate tensor name '" + name + "'");
    Checkpoint::Value *value = message.add_value();
    value->set_tag(name);
    TensorProto *proto = value->mutable_tensor();
    for (int64_t d : tensor.shape())
      proto->add_dims(d);
    proto->set_tensor_type(mindsporeTypeName(tensor.dtype()).str());
    proto->set_tensor_content(static_cast<const char *>(tensor.data()),
                              tensor.byteSize());
  }
  std::string bytes;
  if (!message.SerializeToString(&bytes))
    return fileError(path, "the checkpoint is larger than protobuf's 2 GiB "
                           "message limit");
  return writeFileAtomically(path,
                             [&](llvm::raw_ostream &os) { os << bytes; });
}

llvm::Error ms::runtime::writeCheckpoint(
    llvm::StringRef path,
    llvm::ArrayRef<std::pair<std::string, HostTensor>> tensors,
    CheckpointFormat format) {
  return format == CheckpointFormat::MindSpore
             ? writeMindSporeCheckpoint(path, tensors)
             : writeSafeTensors(path, tensors);
}

llvm::Expected<CheckpointFile> CheckpointFile::open(llvm::StringRef path) {
  CheckpointFile file;
  file.filePath = path.str();
  // Read once: the first bytes say the format, the rest is parsed.
  auto contents = readRegularFile(path);
  if (!contents)
    return contents.takeError();
  file.fileFormat = detectCheckpointFormat((*contents)->getBuffer());
  if (file.fileFormat == CheckpointFormat::SafeTensors) {
    auto st = SafeTensorsFile::fromBuffer(path, std::move(*contents));
    if (!st)
      return st.takeError();
    file.safetensors = std::move(*st);
    return file;
  }
  auto tensors = parseMindSporeCheckpoint(path, (*contents)->getBuffer());
  if (!tensors)
    return tensors.takeError();
  file.tensors = std::move(*tensors);
  for (size_t i = 0; i < file.tensors.size(); ++i)
    file.index.emplace(file.tensors[i].first, i);
  return file;
}

bool CheckpointFile::contains(llvm::StringRef name) const {
  return safetensors ? safetensors->contains(name)
                     : index.count(name.str()) != 0;
}

std::vector<std::string> CheckpointFile::names() const {
  if (safetensors)
    return safetensors->names();
  std::vector<std::string> out;
  for (const auto &[name, tensor] : tensors)
    out.push_back(name);
  return out;
}

llvm::Expected<HostTensor> CheckpointFile::load(llvm::StringRef name) const {
  if (safetensors)
    return safetensors->load(name);
  auto it = index.find(name.str());
  if (it == index.end())
    return fileError(filePath, "has no tensor named '" + name + "'");
  return tensors[it->second].second.clone();
}

llvm::Expected<HostTensor>
CheckpointFile::load(llvm::StringRef name, DType dtype,
                     llvm::ArrayRef<int64_t> shape) const {
  if (safetensors)
    return safetensors->load(name, dtype, shape);
  llvm::Expected<HostTensor> t = load(name);
  if (!t)
    return t.takeError();
  if (t->dtype() != dtype)
    return fileError(filePath, "tensor '" + name + "' has dtype " +
                                   dtypeName(t->dtype()) +
                                   ", parameter expects " + dtypeName(dtype));
  if (t->shape() != shape)
    return fileError(filePath, "tensor '" + name + "' has shape " +
                                   shapeString(t->shape()) +
                                   ", parameter expects " + shapeString(shape));
  return t;
}
