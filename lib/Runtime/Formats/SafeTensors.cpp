//===- SafeTensors.cpp - .safetensors reading and writing -----------------===//

#include "ms/Runtime/Formats/SafeTensors.h"
#include "ms/Support/Error.h"

#include "BoolBytes.h"
#include "FileWriting.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <tuple>

using namespace ms::runtime;
using llvm::StringRef;
using ms::fileError;

namespace {

/// Same limit as the reference implementation; protects against allocating
/// or parsing absurd headers from corrupt files.
constexpr uint64_t kMaxHeaderSize = 100'000'000;

/// Every dtype name the safetensors format defines, with its element size.
/// Those a HostTensor can hold are in DTypes.def; the rest (the float8
/// formats) are parsed, sized and then rejected by name.
struct FormatDType {
  StringRef name;
  uint64_t size;
};

const FormatDType kFormatDTypes[] = {
    {"BOOL", 1}, {"U8", 1},      {"I8", 1},      {"F8_E5M2", 1},
    {"F8_E4M3", 1}, {"F8_E8M0", 1}, {"I16", 2}, {"U16", 2},
    {"F16", 2},  {"BF16", 2},    {"I32", 4},     {"U32", 4},
    {"F32", 4},  {"F64", 8},     {"I64", 8},     {"U64", 8},
};

/// "F32, F16, ..., BOOL": the dtypes a HostTensor can hold, for errors.
std::string supportedNames() {
  std::string list;
  for (const DTypeInfo &info : allDTypes())
    list += (list.empty() ? "" : ", ") + info.safeTensors.str();
  return list;
}

const FormatDType *lookupDType(StringRef name) {
  for (const FormatDType &info : kFormatDTypes)
    if (info.name == name)
      return &info;
  return nullptr;
}

/// Safetensors headers are two levels deep (an object of objects, holding
/// arrays); this leaves room for any sensible __metadata__ and keeps
/// llvm::json::parse, which recurses per level, far from the stack's end.
constexpr unsigned kMaxHeaderNesting = 64;

/// True if the arrays and objects of the JSON `text` nest deeper than
/// `limit`. Brackets inside strings do not count; malformed text is left for
/// the parser to report.
bool nestsDeeperThan(StringRef text, unsigned limit) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i; // Skip the escaped character, which may be a quote.
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit)
        return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

/// The tensors of one file by where their bytes are: two non-empty ranges
/// that share a byte would alias each other's data.
struct Span {
  uint64_t begin, end;
  const std::string *name;
};

llvm::Error checkNoOverlap(StringRef path, std::vector<Span> spans) {
  llvm::erase_if(spans, [](const Span &s) { return s.begin == s.end; });
  std::sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) {
    return std::tie(a.begin, a.end, *a.name) < std::tie(b.begin, b.end, *b.name);
  });
  // Compare each range with the one reaching furthest before it, so a long
  // range that covers several later ones is caught too.
  const Span *furthest = nullptr;
  for (const Span &span : spans) {
    if (furthest && span.begin < furthest->end)
      return fileError(path, "tensors '" + *furthest->name +
                                 "' (data_offsets [" +
                                 llvm::Twine(furthest->begin) + ", " +
                                 llvm::Twine(furthest->end) + "]) and '" +
                                 *span.name + "' (data_offsets [" +
                                 llvm::Twine(span.begin) + ", " +
                                 llvm::Twine(span.end) + "]) overlap");
    if (!furthest || span.end > furthest->end)
      furthest = &span;
  }
  return llvm::Error::success();
}

/// "[begin, end]", as data_offsets are written.
std::string offsetText(uint64_t begin, uint64_t end) {
  return "[" + std::to_string(begin) + ", " + std::to_string(end) + "]";
}

std::optional<uint64_t> getNonNegative(const llvm::json::Value &value) {
  if (auto i = value.getAsInteger()) {
    if (*i < 0)
      return std::nullopt;
    return static_cast<uint64_t>(*i);
  }
  return value.getAsUINT64();
}

/// The JSON header of `bytes` (the whole file), after its 8-byte
/// little-endian length, which must fit the limit and the file.
llvm::Expected<StringRef> headerOf(StringRef path, StringRef bytes) {
  if (bytes.size() < 8)
    return fileError(path,
                     "not a safetensors file: " + llvm::Twine(bytes.size()) +
                         " bytes is too short for the header length");
  uint64_t headerLen = 0;
  for (unsigned i = 0; i < 8; ++i)
    headerLen |= uint64_t((unsigned char)bytes[i]) << (8 * i);
  if (headerLen > kMaxHeaderSize)
    return fileError(path, "header length " + llvm::Twine(headerLen) +
                               " exceeds the limit of " +
                               llvm::Twine(kMaxHeaderSize) + " bytes");
  if (headerLen > bytes.size() - 8)
    return fileError(path, "header length " + llvm::Twine(headerLen) +
                               " is larger than the rest of the file (" +
                               llvm::Twine(bytes.size() - 8) + " bytes)");
  return bytes.substr(8, headerLen);
}

/// The header parsed as JSON; nesting is bounded first, so that a hostile
/// header cannot exhaust the parser's stack.
llvm::Expected<llvm::json::Value> parseHeader(StringRef path,
                                              StringRef headerText) {
  if (nestsDeeperThan(headerText, kMaxHeaderNesting))
    return fileError(path, "JSON header nests arrays or objects deeper than " +
                               llvm::Twine(kMaxHeaderNesting) + " levels");
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(headerText);
  if (!json)
    return fileError(path, "malformed JSON header: " +
                               llvm::toString(json.takeError()));
  if (!json->getAsObject())
    return fileError(path, "JSON header is not an object");
  return json;
}

llvm::Error checkMetadata(StringRef path, const llvm::json::Value &value) {
  const llvm::json::Object *metadata = value.getAsObject();
  bool ok = metadata != nullptr;
  if (ok)
    for (const auto &kv : *metadata)
      ok &= kv.second.getAsString().has_value();
  if (!ok)
    return fileError(path, "'__metadata__' must be an object mapping "
                           "strings to strings");
  return llvm::Error::success();
}

/// An entry's "shape": its dims, and their product (saturated, with
/// `overflow` set when it saturated).
llvm::Error parseShape(StringRef path, const std::string &prefix,
                       const llvm::json::Object &object,
                       std::vector<int64_t> &shape, uint64_t &numElements,
                       bool &overflow) {
  auto notAShape = [&] {
    return fileError(path, prefix + ": \"shape\" must be a list of "
                                    "non-negative integers");
  };
  const llvm::json::Array *dims = object.getArray("shape");
  if (!dims)
    return notAShape();
  numElements = 1;
  overflow = false;
  for (const llvm::json::Value &dim : *dims) {
    std::optional<uint64_t> d = getNonNegative(dim);
    if (!d || *d > uint64_t(INT64_MAX))
      return notAShape();
    shape.push_back(static_cast<int64_t>(*d));
    bool stepOverflow = false;
    numElements = llvm::SaturatingMultiply(numElements, *d, &stepOverflow);
    overflow |= stepOverflow;
  }
  return llvm::Error::success();
}

/// An entry's "data_offsets" [begin, end], within the `dataSize` bytes of
/// the data section.
llvm::Expected<std::pair<uint64_t, uint64_t>>
parseOffsets(StringRef path, const std::string &prefix,
             const llvm::json::Object &object, uint64_t dataSize) {
  const llvm::json::Array *offsets = object.getArray("data_offsets");
  std::optional<uint64_t> begin, end;
  if (offsets && offsets->size() == 2) {
    begin = getNonNegative((*offsets)[0]);
    end = getNonNegative((*offsets)[1]);
  }
  if (!begin || !end)
    return fileError(path, prefix + ": \"data_offsets\" must be a list of "
                                    "two non-negative integers");
  if (*begin > *end)
    return fileError(path, prefix + " has data_offsets " +
                               offsetText(*begin, *end) +
                               " with begin after end");
  if (*end > dataSize)
    return fileError(path, prefix + " has data_offsets " +
                               offsetText(*begin, *end) +
                               " past the end of the data section (" +
                               llvm::Twine(dataSize) + " bytes)");
  return std::make_pair(*begin, *end);
}

} // namespace

llvm::Expected<SafeTensorsFile::Entry>
SafeTensorsFile::parseEntry(StringRef path, const std::string &name,
                            const llvm::json::Value &value, uint64_t dataSize) {
  std::string prefix = "tensor '" + name + "'";
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return fileError(path, prefix + ": entry is not a JSON object");

  Entry entry;
  const llvm::json::Value *dtypeValue = object->get("dtype");
  std::optional<StringRef> dtypeString =
      dtypeValue ? dtypeValue->getAsString() : std::nullopt;
  if (!dtypeString)
    return fileError(path, prefix + ": missing or non-string \"dtype\"");
  const FormatDType *info = lookupDType(*dtypeString);
  if (!info)
    return fileError(path,
                     prefix + " has unknown dtype '" + *dtypeString + "'");
  entry.dtypeString = dtypeString->str();
  entry.dtype = dtypeFromSafeTensorsName(info->name);

  uint64_t numElements = 1;
  bool overflow = false;
  if (llvm::Error error =
          parseShape(path, prefix, *object, entry.shape, numElements, overflow))
    return std::move(error);
  auto offsets = parseOffsets(path, prefix, *object, dataSize);
  if (!offsets)
    return offsets.takeError();
  auto [begin, end] = *offsets;
  bool bytesOverflow = false;
  uint64_t expectedBytes =
      llvm::SaturatingMultiply(numElements, info->size, &bytesOverflow);
  if (overflow || bytesOverflow || expectedBytes != end - begin)
    return fileError(
        path, prefix + " has shape " + shapeString(entry.shape) +
                  " and dtype " + entry.dtypeString + ", which needs " +
                  (overflow || bytesOverflow ? std::string("too many")
                                             : std::to_string(expectedBytes)) +
                  " bytes, but data_offsets " + offsetText(begin, end) +
                  " span " + llvm::Twine(end - begin));
  entry.begin = begin;
  entry.end = end;
  return entry;
}

llvm::Expected<SafeTensorsFile> SafeTensorsFile::open(StringRef path) {
  auto bufferOrErr = readRegularFile(path);
  if (!bufferOrErr)
    return bufferOrErr.takeError();
  return fromBuffer(path, std::move(*bufferOrErr));
}

llvm::Expected<SafeTensorsFile>
SafeTensorsFile::fromBuffer(StringRef path,
                            std::unique_ptr<llvm::MemoryBuffer> contents) {
  SafeTensorsFile file;
  file.filePath = path.str();
  file.buffer = std::move(contents);
  StringRef bytes = file.buffer->getBuffer();
  llvm::Expected<StringRef> headerText = headerOf(path, bytes);
  if (!headerText)
    return headerText.takeError();
  file.dataStart = 8 + headerText->size();
  uint64_t dataSize = bytes.size() - file.dataStart;
  llvm::Expected<llvm::json::Value> json = parseHeader(path, *headerText);
  if (!json)
    return json.takeError();
  const llvm::json::Object *root = json->getAsObject();

  // Validate in name order so the first error reported is deterministic.
  std::vector<std::string> keys;
  for (const auto &kv : *root)
    keys.push_back(kv.first.str());
  std::sort(keys.begin(), keys.end());
  for (const std::string &name : keys) {
    const llvm::json::Value &value = *root->get(name);
    if (name == "__metadata__") {
      if (llvm::Error error = checkMetadata(path, value))
        return std::move(error);
      continue;
    }
    llvm::Expected<Entry> entry = parseEntry(path, name, value, dataSize);
    if (!entry)
      return entry.takeError();
    file.entries.emplace(name, std::move(*entry));
  }
  std::vector<Span> spans;
  for (const auto &[name, entry] : file.entries)
    spans.push_back(Span{entry.begin, entry.end, &name});
  if (auto err = checkNoOverlap(path, std::move(spans)))
    return std::move(err);
  return file;
}

bool SafeTensorsFile::contains(StringRef name) const {
  return entries.count(name.str()) != 0;
}

std::vector<std::string> SafeTensorsFile::names() const {
  std::vector<std::string> result;
  result.reserve(entries.size());
  for (const auto &kv : entries)
    result.push_back(kv.first);
  return result;
}

llvm::Expected<const SafeTensorsFile::Entry *>
SafeTensorsFile::lookup(StringRef name) const {
  auto it = entries.find(name.str());
  if (it == entries.end())
    return fileError(filePath, "has no tensor named '" + name + "'");
  const Entry &entry = it->second;
  if (!entry.dtype)
    return fileError(filePath, "tensor '" + name + "' has dtype " +
                                   entry.dtypeString +
                                   ", which is not supported (expected " +
                                   supportedNames() + ")");
  return &entry;
}

llvm::Expected<HostTensor>
SafeTensorsFile::copyOut(StringRef name, const Entry &entry) const {
  llvm::Expected<HostTensor> allocated =
      HostTensor::allocate(*entry.dtype, entry.shape);
  if (!allocated)
    return fileError(filePath, "tensor '" + name + "': " +
                                   llvm::toString(allocated.takeError()));
  HostTensor tensor = std::move(*allocated);
  const char *bytes = buffer->getBufferStart() + dataStart + entry.begin;
  if (dtypeInfo(*entry.dtype).kind == DTypeKind::Bool)
    if (llvm::Error err =
            checkBoolBytes(filePath, "tensor '" + name.str() + "'",
                           reinterpret_cast<const uint8_t *>(bytes),
                           entry.end - entry.begin))
      return std::move(err);
  if (entry.end > entry.begin)
    std::memcpy(tensor.data(), bytes, entry.end - entry.begin);
  return tensor;
}

llvm::Expected<HostTensor>
SafeTensorsFile::load(StringRef name, DType expectedDType,
                      llvm::ArrayRef<int64_t> expectedShape) const {
  llvm::Expected<const Entry *> entry = lookup(name);
  if (!entry)
    return entry.takeError();
  const Entry &e = **entry;
  if (*e.dtype != expectedDType)
    return fileError(filePath,
                     "tensor '" + name + "' has dtype " + dtypeName(*e.dtype) +
                         ", parameter expects " + dtypeName(expectedDType));
  if (llvm::ArrayRef<int64_t>(e.shape) != expectedShape)
    return fileError(filePath,
                     "tensor '" + name + "' has shape " + shapeString(e.shape) +
                         ", parameter expects " + shapeString(expectedShape));
  return copyOut(name, e);
}

llvm::Expected<HostTensor> SafeTensorsFile::load(StringRef name) const {
  llvm::Expected<const Entry *> entry = lookup(name);
  if (!entry)
    return entry.takeError();
  return copyOut(name, **entry);
}

llvm::Error ms::runtime::writeSafeTensors(
    StringRef path,
    llvm::ArrayRef<std::pair<std::string, HostTensor>> tensors) {
  llvm::StringSet<> seen;
  for (const auto &[name, tensor] : tensors) {
    if (!tensor.isValid())
      return fileError(path,
                       "cannot write invalid (empty) tensor '" + name + "'");
    if (name == "__metadata__")
      return fileError(path, "'__metadata__' is reserved and cannot name a "
                             "tensor");
    if (!seen.insert(name).second)
      return fileError(path, "duplicate tensor name '" + name + "'");
  }

  std::string header;
  {
    llvm::raw_string_ostream os(header);
    llvm::json::OStream json(os);
    uint64_t offset = 0;
    json.object([&] {
      for (const auto &[name, tensor] : tensors) {
        uint64_t end = offset + tensor.byteSize();
        json.attributeObject(name, [&] {
          json.attribute("dtype", dtypeInfo(tensor.dtype()).safeTensors);
          json.attributeArray("shape", [&] {
            for (int64_t d : tensor.shape())
              json.value(d);
          });
          json.attributeArray("data_offsets", [&] {
            json.value(offset);
            json.value(end);
          });
        });
        offset = end;
      }
    });
  }
  // Pad so the data section starts 8-byte aligned, like the reference writer.
  header.append((8 - header.size() % 8) % 8, ' ');

  return writeFile(path, [&](llvm::raw_ostream &out) {
    uint64_t headerLen = header.size();
    for (unsigned i = 0; i < 8; ++i)
      out << char((headerLen >> (8 * i)) & 0xff);
    out << header;
    for (const auto &entry : tensors)
      out.write(static_cast<const char *>(entry.second.data()),
                entry.second.byteSize());
  });
}
