//===- Npy.cpp - NumPy .npy file reading and writing ----------------------===//
//
// Format reference: numpy/lib/format.py. A file is the magic "\x93NUMPY",
// a major/minor version byte pair, a little-endian header length (u16 for
// 1.0, u32 for 2.0/3.0), an ASCII Python dict literal, then the raw data.
//
//===----------------------------------------------------------------------===//

#include "ms/Runtime/Formats/Npy.h"
#include "ms/Support/Error.h"
#include "ms/Support/FileAccess.h"

#include "BoolBytes.h"
#include "FileWriting.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstring>
#include <optional>

using namespace ms::runtime;
using llvm::StringRef;
using ms::fileError;

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

/// A value in the header's Python literal. Only what .npy headers need.
struct PyValue {
  enum Kind { String, Bool, None, Int, Tuple, List } kind = None;
  std::string str;
  bool boolean = false;
  bool negative = false;
  uint64_t integer = 0;
  bool intOverflow = false;
  std::vector<PyValue> elements;
};

/// Hand-written parser for the dict literal. All accesses are bounds-checked
/// against `text`; nesting depth is limited so garbage cannot blow the stack.
class HeaderParser {
public:
  explicit HeaderParser(StringRef text) : text(text) {}

  /// Parses the whole header as a dict of string keys. Returns an error
  /// message (without the path) on failure.
  std::optional<std::string>
  parseDict(std::vector<std::pair<std::string, PyValue>> &entries) {
    skipSpace();
    if (!consume('{'))
      return std::string("expected '{' at start of header");
    skipSpace();
    while (!consume('}')) {
      PyValue key;
      if (auto err = parseValue(key, 0))
        return err;
      if (key.kind != PyValue::String)
        return std::string("dictionary keys must be strings");
      skipSpace();
      if (!consume(':'))
        return "expected ':' after key '" + key.str + "'";
      PyValue value;
      if (auto err = parseValue(value, 0))
        return err;
      for (auto &entry : entries)
        if (entry.first == key.str)
          return "duplicate key '" + key.str + "'";
      entries.emplace_back(key.str, std::move(value));
      skipSpace();
      if (consume(','))
        skipSpace();
      else if (peek() != '}')
        return std::string("expected ',' or '}' in dictionary");
    }
    skipSpace();
    if (pos != text.size())
      return std::string("unexpected text after the dictionary");
    return std::nullopt;
  }

private:
  char peek() const { return pos < text.size() ? text[pos] : '\0'; }

  bool consume(char c) {
    if (peek() != c || pos >= text.size())
      return false;
    ++pos;
    return true;
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool consumeWord(StringRef word) {
    if (!text.substr(pos).starts_with(word))
      return false;
    size_t end = pos + word.size();
    if (end < text.size() &&
        (std::isalnum((unsigned char)text[end]) || text[end] == '_'))
      return false;
    pos = end;
    return true;
  }

  std::optional<std::string> parseValue(PyValue &value, unsigned depth) {
    if (depth > 16)
      return std::string("header nested too deeply");
    skipSpace();
    if (pos >= text.size())
      return std::string("unexpected end of header");
    char c = text[pos];
    if (c == '\'' || c == '"')
      return parseString(value, c);
    if (c == '(' || c == '[')
      return parseSequence(value, c, depth);
    if (c == '-' || c == '+' || std::isdigit((unsigned char)c))
      return parseInteger(value, c);
    if (consumeWord("True")) {
      value.kind = PyValue::Bool;
      value.boolean = true;
      return std::nullopt;
    }
    if (consumeWord("False")) {
      value.kind = PyValue::Bool;
      value.boolean = false;
      return std::nullopt;
    }
    if (consumeWord("None")) {
      value.kind = PyValue::None;
      return std::nullopt;
    }
    return std::string("unexpected character '") +
           (std::isprint((unsigned char)c) ? std::string(1, c)
                                           : std::string("?")) +
           "'";
  }

  /// A string literal quoted with `quote`, at pos.
  std::optional<std::string> parseString(PyValue &value, char quote) {
    ++pos;
    value.kind = PyValue::String;
    while (pos < text.size() && text[pos] != quote) {
      if (text[pos] == '\\') {
        if (++pos >= text.size())
          break;
      }
      if (text[pos] == '\n')
        return std::string("newline inside a string");
      value.str += text[pos++];
    }
    if (!consume(quote))
      return std::string("unterminated string");
    return std::nullopt;
  }

  /// A tuple or list opened by `open`, at pos.
  std::optional<std::string> parseSequence(PyValue &value, char open,
                                           unsigned depth) {
    char close = open == '(' ? ')' : ']';
    value.kind = open == '(' ? PyValue::Tuple : PyValue::List;
    ++pos;
    skipSpace();
    while (!consume(close)) {
      PyValue element;
      if (auto err = parseValue(element, depth + 1))
        return err;
      value.elements.push_back(std::move(element));
      skipSpace();
      if (consume(','))
        skipSpace();
      else if (peek() != close)
        return std::string("expected ',' or '") + close + "' in sequence";
    }
    return std::nullopt;
  }

  /// An integer whose first character, `first`, is at pos.
  std::optional<std::string> parseInteger(PyValue &value, char first) {
    value.kind = PyValue::Int;
    if (first == '-' || first == '+') {
      value.negative = first == '-';
      ++pos;
    }
    if (!std::isdigit((unsigned char)peek()))
      return std::string("malformed integer");
    while (std::isdigit((unsigned char)peek())) {
      unsigned digit = text[pos++] - '0';
      if (value.integer > (UINT64_MAX - digit) / 10)
        value.intOverflow = true;
      else
        value.integer = value.integer * 10 + digit;
    }
    // Python 2 era files may spell longs with an 'L' suffix.
    if (peek() == 'L' || peek() == 'l')
      ++pos;
    if (std::isalnum((unsigned char)peek()) || peek() == '.')
      return std::string("malformed integer");
    return std::nullopt;
  }

  StringRef text;
  size_t pos = 0;
};

std::string dtypeCode(DType dtype);

/// "<f4, <f2, ..., |b1": every descr readNpy accepts, for error messages.
std::string supportedDescrs() {
  std::string list;
  for (const DTypeInfo &info : allDTypes()) {
    if (info.npy.empty())
      continue;
    if (!list.empty())
      list += ", ";
    list += dtypeCode(info.dtype);
  }
  return list;
}

/// The descr of a little-endian `dtype` array ("<f4", "|u1", ...).
std::string dtypeCode(DType dtype) {
  const DTypeInfo &info = dtypeInfo(dtype);
  return (info.bytes == 1 ? "|" : "<") + info.npy.str();
}

/// The header and the data of `file`, after its magic, version and header
/// length.
llvm::Expected<std::pair<StringRef, StringRef>> splitFile(StringRef path,
                                                          StringRef file) {
  if (file.size() < kMagicLen || std::memcmp(file.data(), kMagic, kMagicLen))
    return fileError(path, "not a .npy file (bad magic)");
  if (file.size() < kMagicLen + 2)
    return fileError(path, "truncated: file ends inside the preamble");
  unsigned major = (unsigned char)file[6], minor = (unsigned char)file[7];
  size_t lenBytes;
  if (major == 1 && minor == 0)
    lenBytes = 2;
  else if ((major == 2 || major == 3) && minor == 0)
    lenBytes = 4;
  else
    return fileError(path, "unsupported .npy format version " +
                               llvm::Twine(major) + "." + llvm::Twine(minor));
  size_t preamble = kMagicLen + 2 + lenBytes;
  if (file.size() < preamble)
    return fileError(path, "truncated: file ends inside the preamble");
  uint64_t headerLen = 0;
  for (size_t i = 0; i < lenBytes; ++i)
    headerLen |= uint64_t((unsigned char)file[8 + i]) << (8 * i);
  if (headerLen > file.size() - preamble)
    return fileError(path, "truncated: header length is " +
                               llvm::Twine(headerLen) + " bytes, file has " +
                               llvm::Twine(file.size() - preamble) +
                               " after the preamble");
  return std::make_pair(file.substr(preamble, headerLen),
                        file.substr(preamble + headerLen));
}

/// The three keys of a header, each present once.
struct HeaderKeys {
  const PyValue *descr = nullptr, *fortran = nullptr, *shape = nullptr;
};

llvm::Expected<HeaderKeys>
findKeys(StringRef path,
         const std::vector<std::pair<std::string, PyValue>> &entries) {
  HeaderKeys keys;
  for (auto &entry : entries) {
    if (entry.first == "descr")
      keys.descr = &entry.second;
    else if (entry.first == "fortran_order")
      keys.fortran = &entry.second;
    else if (entry.first == "shape")
      keys.shape = &entry.second;
    else
      return fileError(path, "malformed header: unexpected key '" +
                                 entry.first + "'");
  }
  if (!keys.descr || !keys.fortran || !keys.shape)
    return fileError(path, "malformed header: missing key '" +
                               llvm::Twine(!keys.descr     ? "descr"
                                           : !keys.fortran ? "fortran_order"
                                                           : "shape") +
                               "'");
  return keys;
}

/// The dtype of 'descr': a little-endian (or byte) dtype HostTensor holds.
llvm::Expected<DType> parseDescr(StringRef path, const PyValue &descr) {
  if (descr.kind != PyValue::String)
    return fileError(path, "unsupported dtype (structured arrays are not "
                           "supported; expected " + supportedDescrs() + ")");
  StringRef descrStr = descr.str;
  std::optional<DType> dtype;
  if (descrStr.size() >= 2 && (descrStr[0] == '<' || descrStr[0] == '>' ||
                               descrStr[0] == '=' || descrStr[0] == '|'))
    dtype = dtypeFromNpyCode(descrStr.drop_front());
  // '|' (no byte order) is numpy's spelling for one-byte types only.
  if (!dtype || (descrStr[0] == '|') != (dtypeSize(*dtype) == 1))
    return fileError(path, "unsupported dtype '" + descrStr +
                               "' (expected " + supportedDescrs() + ")");
  if (descrStr[0] == '>')
    return fileError(path, "big-endian data is not supported");
  if (!llvm::sys::IsLittleEndianHost && descrStr[0] == '<')
    return fileError(path, "little-endian data on a big-endian host is not "
                           "supported");
  return *dtype;
}

llvm::Error checkCOrder(StringRef path, const PyValue &fortran) {
  if (fortran.kind != PyValue::Bool)
    return fileError(path, "malformed header: 'fortran_order' must be True "
                           "or False");
  if (fortran.boolean)
    return fileError(path, "Fortran-order arrays are not supported");
  return llvm::Error::success();
}

/// The dims of 'shape', and the bytes of data they need in `dtype`, which
/// the `available` bytes after the header must hold.
llvm::Expected<std::pair<std::vector<int64_t>, uint64_t>>
parseShape(StringRef path, const PyValue &shapeValue, DType dtype,
           size_t available) {
  if (shapeValue.kind != PyValue::Tuple)
    return fileError(path, "malformed header: 'shape' must be a tuple");
  std::vector<int64_t> shape;
  uint64_t numElements = 1;
  bool countOverflow = false;
  for (const PyValue &dim : shapeValue.elements) {
    if (dim.kind != PyValue::Int)
      return fileError(path,
                       "malformed header: shape entries must be integers");
    if (dim.negative && (dim.integer != 0 || dim.intOverflow))
      return fileError(path, "malformed header: negative shape dimension");
    if (dim.intOverflow || dim.integer > uint64_t(INT64_MAX))
      return fileError(path, "malformed header: shape dimension too large");
    shape.push_back(static_cast<int64_t>(dim.integer));
    bool overflowed = false;
    numElements =
        llvm::SaturatingMultiply(numElements, dim.integer, &overflowed);
    countOverflow |= overflowed;
  }
  bool bytesOverflow = false;
  uint64_t dataBytes = llvm::SaturatingMultiply(
      numElements, uint64_t(dtypeSize(dtype)), &bytesOverflow);
  if (countOverflow || bytesOverflow || numElements > uint64_t(INT64_MAX))
    return fileError(path, "malformed header: shape " + shapeString(shape) +
                               " is too large");
  if (dataBytes > available)
    return fileError(path,
                     "truncated: header promises " + llvm::Twine(dataBytes) +
                         " bytes of data, file has " + llvm::Twine(available));
  return std::make_pair(std::move(shape), dataBytes);
}

} // namespace

llvm::Expected<HostTensor> ms::runtime::readNpy(StringRef path) {
  auto bufferOrErr = readRegularFile(path);
  if (!bufferOrErr)
    return bufferOrErr.takeError();
  auto parts = splitFile(path, (*bufferOrErr)->getBuffer());
  if (!parts)
    return parts.takeError();
  auto [header, payload] = *parts;
  std::vector<std::pair<std::string, PyValue>> entries;
  if (auto err = HeaderParser(header).parseDict(entries))
    return fileError(path, "malformed header: " + *err);
  llvm::Expected<HeaderKeys> keys = findKeys(path, entries);
  if (!keys)
    return keys.takeError();
  llvm::Expected<DType> dtype = parseDescr(path, *keys->descr);
  if (!dtype)
    return dtype.takeError();
  if (llvm::Error error = checkCOrder(path, *keys->fortran))
    return std::move(error);
  auto shape = parseShape(path, *keys->shape, *dtype, payload.size());
  if (!shape)
    return shape.takeError();
  auto &[dims, dataBytes] = *shape;
  if (dtypeInfo(*dtype).kind == DTypeKind::Bool)
    if (llvm::Error err = checkBoolBytes(
            path, "the array",
            reinterpret_cast<const uint8_t *>(payload.data()), dataBytes))
      return std::move(err);

  llvm::Expected<HostTensor> allocated = HostTensor::allocate(*dtype, dims);
  if (!allocated)
    return fileError(path, llvm::toString(allocated.takeError()));
  HostTensor tensor = std::move(*allocated);
  if (dataBytes)
    std::memcpy(tensor.data(), payload.data(), dataBytes);
  return tensor;
}

llvm::Error ms::runtime::writeNpy(StringRef path, const HostTensor &tensor) {
  if (!tensor.isValid())
    return fileError(path, "cannot write an invalid (empty) tensor");

  std::string dict;
  llvm::raw_string_ostream os(dict);
  os << "{'descr': '" << dtypeCode(tensor.dtype())
     << "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < tensor.rank(); ++i)
    os << (i ? ", " : "") << tensor.shape()[i];
  if (tensor.rank() == 1)
    os << ',';
  os << "), }";

  // numpy pads the header with spaces so that the data starts on a 64-byte
  // boundary, and terminates it with '\n'.
  unsigned major = 1;
  size_t lenBytes = 2;
  size_t unpadded = kMagicLen + 2 + lenBytes + dict.size() + 1;
  size_t padding = (64 - unpadded % 64) % 64;
  if (dict.size() + 1 + padding > 0xffff) {
    major = 2;
    lenBytes = 4;
    unpadded = kMagicLen + 2 + lenBytes + dict.size() + 1;
    padding = (64 - unpadded % 64) % 64;
  }
  std::string header = dict + std::string(padding, ' ') + "\n";

  return writeFile(path, [&](llvm::raw_ostream &out) {
    out.write(kMagic, kMagicLen);
    out << char(major) << char(0);
    for (size_t i = 0; i < lenBytes; ++i)
      out << char((header.size() >> (8 * i)) & 0xff);
    out << header;
    out.write(static_cast<const char *>(tensor.data()), tensor.byteSize());
  });
}
