//===- NumpyFormat.cpp - Print tensors the way NumPy does -----------------===//
//
// Mirrors numpy/core/arrayprint.py (NumPy 1.2x, default options, legacy off):
// FloatingFormat / IntegerFormat choose one format for all displayed
// elements, and _formatArray lays them out with line wrapping and
// summarisation. Digits come from an exact Dragon4-style generator so they
// match NumPy bit for bit: the shortest digits that round-trip through the
// element type (f32 or f16), except where NumPy asks for a minimum number of
// digits, in which case further exact digits are produced (e.g. float16
// 43872 prints as "43872." inside an array but "43870.0" as a scalar).
//
//===----------------------------------------------------------------------===//

#include "ms/Runtime/Formats/NumpyFormat.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace ms::runtime;

namespace {

// NumPy's default print options.
constexpr int kPrecision = 8;
constexpr int kLineWidth = 75;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;

//===----------------------------------------------------------------------===//
// Exact digit generation (Steele & White / Dragon4 style)
//===----------------------------------------------------------------------===//

/// Minimal arbitrary-precision unsigned integer; just what digit generation
/// needs. Values stay small (a few hundred bits) for f32/f16 inputs.
class BigUInt {
public:
  explicit BigUInt(uint64_t value = 0) {
    while (value) {
      limbs.push_back(uint32_t(value));
      value >>= 32;
    }
  }

  void mulSmall(uint32_t factor) {
    uint64_t carry = 0;
    for (uint32_t &limb : limbs) {
      uint64_t product = uint64_t(limb) * factor + carry;
      limb = uint32_t(product);
      carry = product >> 32;
    }
    if (carry)
      limbs.push_back(uint32_t(carry));
  }

  void mulPow10(unsigned exponent) {
    for (unsigned i = 0; i < exponent; ++i)
      mulSmall(10);
  }

  void shiftLeft(unsigned bits) {
    if (limbs.empty())
      return;
    unsigned whole = bits / 32, part = bits % 32;
    if (part) {
      uint32_t carry = 0;
      for (uint32_t &limb : limbs) {
        uint32_t next = limb >> (32 - part);
        limb = (limb << part) | carry;
        carry = next;
      }
      if (carry)
        limbs.push_back(carry);
    }
    limbs.insert(limbs.begin(), whole, 0);
  }

  void add(const BigUInt &other) {
    if (limbs.size() < other.limbs.size())
      limbs.resize(other.limbs.size(), 0);
    uint64_t carry = 0;
    for (size_t i = 0; i < limbs.size(); ++i) {
      uint64_t sum = uint64_t(limbs[i]) + carry +
                     (i < other.limbs.size() ? other.limbs[i] : 0);
      limbs[i] = uint32_t(sum);
      carry = sum >> 32;
    }
    if (carry)
      limbs.push_back(uint32_t(carry));
  }

  /// Requires *this >= other.
  void sub(const BigUInt &other) {
    int64_t borrow = 0;
    for (size_t i = 0; i < limbs.size(); ++i) {
      int64_t diff = int64_t(limbs[i]) - borrow -
                     (i < other.limbs.size() ? int64_t(other.limbs[i]) : 0);
      borrow = diff < 0;
      limbs[i] = uint32_t(diff + (borrow ? (int64_t(1) << 32) : 0));
    }
    trim();
  }

  static int compare(const BigUInt &a, const BigUInt &b) {
    if (a.limbs.size() != b.limbs.size())
      return a.limbs.size() < b.limbs.size() ? -1 : 1;
    for (size_t i = a.limbs.size(); i-- > 0;)
      if (a.limbs[i] != b.limbs[i])
        return a.limbs[i] < b.limbs[i] ? -1 : 1;
    return 0;
  }

  /// Replaces *this by *this mod divisor and returns the quotient, which the
  /// caller guarantees is below 10.
  unsigned divModSmallQuotient(const BigUInt &divisor) {
    unsigned quotient = 0;
    while (compare(*this, divisor) >= 0) {
      sub(divisor);
      ++quotient;
    }
    return quotient;
  }

private:
  void trim() {
    while (!limbs.empty() && limbs.back() == 0)
      limbs.pop_back();
  }

  std::vector<uint32_t> limbs; // Little-endian.
};

/// A finite binary float as mantissa * 2^exponent.
struct BinaryFloat {
  bool negative = false;
  uint64_t mantissa = 0;
  int exponent = 0;
  /// True for powers of two (other than the smallest normal), whose lower
  /// neighbour is closer than the upper one.
  bool unequalMargins = false;
};

BinaryFloat decompose(double value, DType dtype) {
  BinaryFloat f;
  f.negative = std::signbit(value);
  uint64_t biased, fraction;
  int bias, fractionBits;
  if (dtype == DType::F16) {
    uint16_t bits = doubleToHalf(value);
    biased = (bits >> 10) & 0x1f;
    fraction = bits & 0x3ff;
    bias = 15;
    fractionBits = 10;
  } else {
    float narrow = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &narrow, sizeof(bits));
    biased = (bits >> 23) & 0xff;
    fraction = bits & 0x7fffff;
    bias = 127;
    fractionBits = 23;
  }
  if (biased == 0) {
    f.mantissa = fraction;
    f.exponent = 1 - bias - fractionBits;
  } else {
    f.mantissa = fraction | (uint64_t(1) << fractionBits);
    f.exponent = int(biased) - bias - fractionBits;
    f.unequalMargins = fraction == 0 && biased > 1;
  }
  return f;
}

/// Significant digits d0 d1 d2 ... and the decimal exponent of d0. Zero is
/// digits "0" with exponent 0.
struct Digits {
  bool negative = false;
  std::string digits = "0";
  int exp10 = 0;
};

/// Where digit generation may stop, mirroring Dragon4's cutoff modes. `max`
/// caps the digits; `min` forces at least that many (generating exact digits
/// past the shortest unique ones). Negative means "no limit".
struct Cutoff {
  enum Mode { TotalLength, FractionLength } mode = TotalLength;
  int max = -1;
  int min = -1;
};

/// value = num / den, and the half-gaps to the neighbouring floats,
/// marginLow / den and marginHigh / den, as digits are generated.
struct DigitRatio {
  BigUInt num, den, marginHigh, marginLow;
  bool isEven = false;

  /// The ratio times 10^power.
  void scaleBy10(int power) {
    if (power > 0) {
      den.mulPow10(power);
    } else if (power < 0) {
      num.mulPow10(-power);
      marginHigh.mulPow10(-power);
      marginLow.mulPow10(-power);
    }
  }
};

/// `f` as a ratio, everything scaled by 4 so the quarter-ulp of the unequal
/// case stays an integer.
DigitRatio ratioOf(const BinaryFloat &f) {
  DigitRatio r{BigUInt(f.mantissa), BigUInt(4), BigUInt(2), BigUInt(2)};
  r.num.shiftLeft(2);
  if (f.exponent >= 0) {
    r.num.shiftLeft(f.exponent);
    r.marginHigh.shiftLeft(f.exponent);
    r.marginLow.shiftLeft(f.exponent);
  } else {
    r.den.shiftLeft(-f.exponent);
  }
  if (f.unequalMargins) {
    r.marginLow = BigUInt(1);
    if (f.exponent >= 0)
      r.marginLow.shiftLeft(f.exponent);
  }
  r.isEven = f.mantissa % 2 == 0;
  return r;
}

/// Scales `r` below 1 and returns k with 10^(k-1) <= value < 10^k, found
/// from an estimate. With a fractional cutoff, values below the last
/// allowed digit start with zeros at the cutoff's first position instead.
int normalize(DigitRatio &r, const BinaryFloat &f, const Cutoff &cutoff) {
  double approx = std::log10(double(f.mantissa)) + f.exponent * std::log10(2.0);
  int k = int(std::floor(approx)) + 1;
  r.scaleBy10(k);
  while (BigUInt::compare(r.num, r.den) >= 0) {
    r.den.mulSmall(10);
    ++k;
  }
  for (;;) {
    BigUInt tenfold = r.num;
    tenfold.mulSmall(10);
    if (BigUInt::compare(tenfold, r.den) >= 0)
      break;
    r.scaleBy10(-1);
    --k;
  }
  if (cutoff.mode == Cutoff::FractionLength && cutoff.max >= 0 &&
      k <= -cutoff.max) {
    r.den.mulPow10(-cutoff.max + 1 - k);
    k = -cutoff.max + 1;
  }
  return k;
}

/// The digit generation stopped at: and whether the value lies within the
/// lower or the upper margin there.
struct LastDigit {
  unsigned digit = 0;
  bool low = false, high = false;
};

/// Appends to `digits` every digit before the last one, from the first,
/// whose exponent is k-1, until the digits identify the value (and reach
/// the cutoff's minimum) or reach its maximum; returns the last.
LastDigit generate(DigitRatio &r, int k, const Cutoff &cutoff,
                   std::string &digits) {
  int maxExp = INT_MIN, minExp = k;
  if (cutoff.max >= 0)
    maxExp = cutoff.mode == Cutoff::TotalLength ? k - cutoff.max : -cutoff.max;
  if (cutoff.min >= 0)
    minExp = cutoff.mode == Cutoff::TotalLength ? k - cutoff.min : -cutoff.min;
  int digitExp = k;
  LastDigit last;
  for (;;) {
    --digitExp;
    r.num.mulSmall(10);
    r.marginLow.mulSmall(10);
    r.marginHigh.mulSmall(10);
    last.digit = r.num.divModSmallQuotient(r.den);
    int cmpLow = BigUInt::compare(r.num, r.marginLow);
    last.low = r.isEven ? cmpLow <= 0 : cmpLow < 0;
    BigUInt upper = r.num;
    upper.add(r.marginHigh);
    int cmpHigh = BigUInt::compare(upper, r.den);
    last.high = r.isEven ? cmpHigh >= 0 : cmpHigh > 0;
    if (((last.low || last.high) && digitExp <= minExp) || digitExp == maxExp)
      return last;
    digits.push_back(char('0' + last.digit));
  }
}

/// Appends the last digit, rounded towards the only neighbour in range, or
/// else to nearest with ties to an even digit; returns the exponent of the
/// first digit, `firstExp` or one more when rounding carried out of it.
int appendRounded(const DigitRatio &r, LastDigit last, std::string &digits,
                  int firstExp) {
  bool roundDown = last.low;
  if (last.low == last.high) {
    BigUInt twice = r.num;
    twice.shiftLeft(1);
    int cmp = BigUInt::compare(twice, r.den);
    roundDown = cmp < 0 || (cmp == 0 && last.digit % 2 == 0);
  }
  if (roundDown) {
    digits.push_back(char('0' + last.digit));
  } else if (last.digit < 9) {
    digits.push_back(char('0' + last.digit + 1));
  } else {
    while (!digits.empty() && digits.back() == '9')
      digits.pop_back();
    if (digits.empty()) {
      digits = "1";
      ++firstExp;
    } else {
      ++digits.back();
    }
  }
  return firstExp;
}

/// Generates the shortest digits that uniquely identify `f` among floats of
/// its type, subject to `cutoff`; the last digit is rounded exactly.
Digits generateDigits(const BinaryFloat &f, const Cutoff &cutoff) {
  Digits out;
  out.negative = f.negative;
  if (f.mantissa == 0)
    return out;
  DigitRatio r = ratioOf(f);
  int k = normalize(r, f, cutoff);
  std::string digits;
  LastDigit last = generate(r, k, cutoff, digits);
  int firstExp = appendRounded(r, last, digits, k - 1);
  // Leading zeros only appear after the fractional-cutoff adjustment.
  size_t nonZero = digits.find_first_not_of('0');
  if (nonZero == std::string::npos)
    return out;
  out.digits = digits.substr(nonZero);
  out.exp10 = firstExp - int(nonZero);
  return out;
}

Digits digitsOf(double value, DType dtype, const Cutoff &cutoff) {
  return generateDigits(decompose(value, dtype), cutoff);
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

bool isFloat(DType dtype) { return isFloatDType(dtype); }

double floatAt(const HostTensor &t, int64_t i) {
  return loadElement(t.data(), t.dtype(), i);
}

int64_t intAt(const HostTensor &t, int64_t i) {
  return loadInteger(t.data(), t.dtype(), i);
}

/// Rounds a float32 result to the element type; NumPy computes float16
/// arithmetic in float32 and rounds the result back.
double roundToType(float value, DType dtype) {
  if (dtype == DType::F16)
    return halfToDouble(doubleToHalf(value));
  return value;
}

//===----------------------------------------------------------------------===//
// Dragon4-style string building
//===----------------------------------------------------------------------===//

/// Positional rendering split at the decimal point, trailing fractional
/// zeros removed (trim='.'); the integer part carries the sign.
std::pair<std::string, std::string> positionalParts(const Digits &d) {
  std::string intPart, fracPart;
  int len = d.digits.size();
  int pointPos = d.exp10 + 1;
  if (d.digits == "0") {
    intPart = "0";
  } else if (pointPos <= 0) {
    intPart = "0";
    fracPart = std::string(-pointPos, '0') + d.digits;
  } else if (pointPos >= len) {
    intPart = d.digits + std::string(pointPos - len, '0');
  } else {
    intPart = d.digits.substr(0, pointPos);
    fracPart = d.digits.substr(pointPos);
  }
  while (!fracPart.empty() && fracPart.back() == '0')
    fracPart.pop_back();
  if (d.negative)
    intPart.insert(intPart.begin(), '-');
  return {intPart, fracPart};
}

struct SciParts {
  std::string intPart; // Sign and leading digit.
  std::string fracPart;
  int exponent = 0;
};

SciParts scientificParts(const Digits &d) {
  SciParts parts;
  parts.intPart = (d.negative ? "-" : "") + d.digits.substr(0, 1);
  parts.fracPart = d.digits.substr(1);
  parts.exponent = d.exp10;
  return parts;
}

/// "e+05" style exponent, zero-padded to at least `minDigits` digits.
std::string exponentString(int exponent, int minDigits) {
  std::string digits = std::to_string(std::abs(exponent));
  if (int(digits.size()) < minDigits)
    digits.insert(0, minDigits - digits.size(), '0');
  return std::string("e") + (exponent < 0 ? "-" : "+") + digits;
}

std::string padLeft(const std::string &s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string padRight(const std::string &s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::string nonFiniteString(double value) {
  if (std::isnan(value))
    return "nan";
  return value < 0 ? "-inf" : "inf";
}

/// str() of a NumPy float scalar.
std::string formatFloatScalar(double value, DType dtype) {
  if (!std::isfinite(value))
    return nonFiniteString(value);
  double a = std::fabs(value);
  if (a == 0 || (a < 1e16 && a >= 1e-4)) {
    // Positional, all digits, trim mode "leave one zero".
    auto [intPart, fracPart] = positionalParts(digitsOf(value, dtype, {}));
    return intPart + "." + (fracPart.empty() ? "0" : fracPart);
  }
  // Scientific, trim mode "drop zeros and the point".
  SciParts parts = scientificParts(digitsOf(value, dtype, {}));
  std::string result = parts.intPart;
  if (!parts.fracPart.empty())
    result += "." + parts.fracPart;
  return result + exponentString(parts.exponent, 2);
}

/// NumPy's FloatingFormat with floatmode='maxprec', sign='-'.
class FloatFormatter {
public:
  FloatFormatter(const std::vector<double> &data, DType dtype) : dtype(dtype) {
    std::vector<double> finite;
    bool hasNonFinite = false, hasNegInf = false;
    for (double v : data) {
      if (std::isfinite(v)) {
        finite.push_back(v);
      } else {
        hasNonFinite = true;
        hasNegInf |= std::isinf(v) && v < 0;
      }
    }

    double maxVal = 0, minVal = 0;
    bool anyNonZero = false;
    for (double v : finite) {
      if (v == 0)
        continue;
      double a = std::fabs(v);
      if (!anyNonZero) {
        maxVal = minVal = a;
        anyNonZero = true;
      } else {
        maxVal = std::max(maxVal, a);
        minVal = std::min(minVal, a);
      }
    }
    if (anyNonZero) {
      // NumPy divides in the array's own precision; the comparisons against
      // Python floats happen in double.
      double ratio = roundToType(
          static_cast<float>(maxVal) / static_cast<float>(minVal), dtype);
      expFormat = maxVal >= 1e8 || minVal < 0.0001 || ratio > 1000.;
    }

    // The first pass (which sizes the fields) prints the shortest digits.
    const Cutoff sciFirstPass{Cutoff::TotalLength, kPrecision + 1, -1};
    const Cutoff posFirstPass{Cutoff::FractionLength, kPrecision, -1};
    if (finite.empty()) {
      padLeftWidth = padRightWidth = 0;
    } else if (expFormat) {
      int maxExpDigits = 0;
      for (double v : finite) {
        SciParts parts = scientificParts(digitsOf(v, dtype, sciFirstPass));
        padLeftWidth = std::max(padLeftWidth, int(parts.intPart.size()));
        precision = std::max(precision, int(parts.fracPart.size()));
        maxExpDigits = std::max(
            maxExpDigits, int(exponentString(parts.exponent, 2).size()) - 2);
      }
      expSize = maxExpDigits;
      padRightWidth = expSize + 2 + precision;
    } else {
      for (double v : finite) {
        auto [intPart, fracPart] =
            positionalParts(digitsOf(v, dtype, posFirstPass));
        padLeftWidth = std::max(padLeftWidth, int(intPart.size()));
        padRightWidth = std::max(padRightWidth, int(fracPart.size()));
      }
    }

    if (hasNonFinite) {
      int offset = padRightWidth + 1;
      padLeftWidth =
          std::max({padLeftWidth, 3 - offset, 3 + int(hasNegInf) - offset});
    }
  }

  std::string operator()(double value) const {
    if (!std::isfinite(value))
      return padLeft(nonFiniteString(value), padLeftWidth + padRightWidth + 1);
    if (expFormat) {
      // Exact digits are generated up to the common precision.
      Cutoff cutoff{Cutoff::TotalLength, precision + 1, precision + 1};
      SciParts parts = scientificParts(digitsOf(value, dtype, cutoff));
      std::string frac = parts.fracPart;
      if (int(frac.size()) < precision)
        frac.append(precision - frac.size(), '0');
      return padLeft(parts.intPart, padLeftWidth) + "." + frac +
             exponentString(parts.exponent, expSize);
    }
    // min_digits=0 makes NumPy print every integer digit exactly.
    Cutoff cutoff{Cutoff::FractionLength, kPrecision, 0};
    auto [intPart, fracPart] = positionalParts(digitsOf(value, dtype, cutoff));
    return padLeft(intPart, padLeftWidth) + "." +
           padRight(fracPart, padRightWidth);
  }

private:
  DType dtype;
  bool expFormat = false;
  int padLeftWidth = 0;
  int padRightWidth = 0;
  int precision = 0; // Fractional digits in scientific mode.
  int expSize = 2;
};

//===----------------------------------------------------------------------===//
// Layout (_formatArray)
//===----------------------------------------------------------------------===//

class ArrayLayout {
public:
  ArrayLayout(llvm::ArrayRef<int64_t> shape, std::vector<int64_t> strides,
              bool summarize, std::function<std::string(int64_t)> formatElement)
      : shape(shape), strides(std::move(strides)), summarize(summarize),
        formatElement(std::move(formatElement)) {}

  std::string format() { return recurse(0, 0, " ", kLineWidth); }

private:
  static std::string rstrip(const std::string &s) {
    size_t end = s.find_last_not_of(" \t\n\r\f\v");
    return end == std::string::npos ? std::string() : s.substr(0, end + 1);
  }

  static void extendLine(std::string &s, std::string &line,
                         const std::string &word, size_t width,
                         const std::string &nextLinePrefix) {
    bool needsWrap = line.size() + word.size() > width;
    // Wrapping would not help if the line holds only the prefix.
    if (line.size() <= nextLinePrefix.size())
      needsWrap = false;
    if (needsWrap) {
      s += rstrip(line) + "\n";
      line = nextLinePrefix;
    }
    line += word;
  }

  std::string recurse(size_t axis, int64_t offset,
                      const std::string &hangingIndent, int currWidth) {
    if (axis == shape.size())
      return formatElement(offset);

    std::string nextHangingIndent = hangingIndent + " ";
    int nextWidth = currWidth - 1; // Room for the closing ']'.
    int64_t length = shape[axis];
    int64_t stride = strides[axis];
    bool showSummary = summarize && 2 * kEdgeItems < length;
    int64_t leading = showSummary ? kEdgeItems : 0;
    int64_t trailing = showSummary ? kEdgeItems : length;
    auto child = [&](int64_t index) {
      return recurse(axis + 1, offset + index * stride, nextHangingIndent,
                     nextWidth);
    };

    std::string s;
    size_t axesLeft = shape.size() - axis;
    if (axesLeft == 1) {
      // Elements must leave room for the separator / closing bracket.
      size_t elemWidth = currWidth - 1;
      std::string line = hangingIndent;
      for (int64_t i = 0; i < leading; ++i) {
        extendLine(s, line, child(i), elemWidth, hangingIndent);
        line += " ";
      }
      if (showSummary) {
        extendLine(s, line, "...", elemWidth, hangingIndent);
        line += " ";
      }
      for (int64_t i = trailing; i > 1; --i) {
        extendLine(s, line, child(length - i), elemWidth, hangingIndent);
        line += " ";
      }
      extendLine(s, line, child(length - 1), elemWidth, hangingIndent);
      s += line;
    } else {
      // Sub-arrays go on separate lines, with axesLeft-2 blank lines between.
      std::string lineSep(axesLeft - 1, '\n');
      for (int64_t i = 0; i < leading; ++i)
        s += hangingIndent + child(i) + lineSep;
      if (showSummary)
        s += hangingIndent + "..." + lineSep;
      for (int64_t i = trailing; i > 1; --i)
        s += hangingIndent + child(length - i) + lineSep;
      s += hangingIndent + child(length - 1);
    }
    return "[" + s.substr(hangingIndent.size()) + "]";
  }

  llvm::ArrayRef<int64_t> shape;
  std::vector<int64_t> strides;
  bool summarize;
  std::function<std::string(int64_t)> formatElement;
};

/// Flat indices of the elements that will be displayed (NumPy's
/// _leading_trailing), in row-major order.
void collectDisplayed(llvm::ArrayRef<int64_t> shape,
                      llvm::ArrayRef<int64_t> strides, bool summarize,
                      size_t axis, int64_t offset, std::vector<int64_t> &out) {
  if (axis == shape.size()) {
    out.push_back(offset);
    return;
  }
  int64_t length = shape[axis];
  for (int64_t i = 0; i < length; ++i) {
    if (summarize && length > 2 * kEdgeItems && i == kEdgeItems)
      i = length - kEdgeItems;
    collectDisplayed(shape, strides, summarize, axis + 1,
                     offset + i * strides[axis], out);
  }
}

} // namespace

std::string ms::runtime::formatLikeNumpy(const HostTensor &tensor) {
  if (!tensor.isValid())
    return "";
  DType dtype = tensor.dtype();
  if (tensor.rank() == 0) {
    if (isFloat(dtype))
      return formatFloatScalar(floatAt(tensor, 0), dtype);
    if (dtype == DType::Bool)
      return intAt(tensor, 0) ? "True" : "False";
    return std::to_string(intAt(tensor, 0));
  }
  if (tensor.numElements() == 0)
    return "[]";

  bool summarize = tensor.numElements() > kThreshold;
  std::vector<int64_t> strides = tensor.strides();
  std::vector<int64_t> displayed;
  collectDisplayed(tensor.shape(), strides, summarize, 0, 0, displayed);

  std::function<std::string(int64_t)> formatElement;
  if (isFloat(dtype)) {
    std::vector<double> values;
    values.reserve(displayed.size());
    for (int64_t i : displayed)
      values.push_back(floatAt(tensor, i));
    FloatFormatter formatter(values, dtype);
    formatElement = [formatter, &tensor](int64_t i) {
      return formatter(floatAt(tensor, i));
    };
  } else if (dtype == DType::Bool) {
    // numpy pads every element to the widest shown: " True" beside "False".
    bool anyFalse = llvm::any_of(
        displayed, [&tensor](int64_t i) { return intAt(tensor, i) == 0; });
    size_t width = anyFalse ? 5 : 4;
    formatElement = [width, &tensor](int64_t i) {
      return padLeft(intAt(tensor, i) ? "True" : "False", width);
    };
  } else {
    int64_t maxVal = intAt(tensor, displayed.front());
    int64_t minVal = maxVal;
    for (int64_t i : displayed) {
      maxVal = std::max(maxVal, intAt(tensor, i));
      minVal = std::min(minVal, intAt(tensor, i));
    }
    size_t width =
        std::max(std::to_string(maxVal).size(), std::to_string(minVal).size());
    formatElement = [width, &tensor](int64_t i) {
      return padLeft(std::to_string(intAt(tensor, i)), width);
    };
  }
  return ArrayLayout(tensor.shape(), strides, summarize, formatElement)
      .format();
}
