//===- Transforms.cpp - Built-in dataset transforms -----------------------===//
//
// Images are [H, W] or [H, W, C] (HWC, as MindSpore's vision ops take
// them). Arithmetic is float32, one rounding per step in MindSpore's order,
// so results equal numpy's (this library is built with -ffp-contract=off).
//
//===----------------------------------------------------------------------===//

#include "ms/Data/Transforms.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace ms::data;

namespace {

llvm::Error opError(const TensorOp &op, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (op.name() + ": " + message).str());
}

/// H, W, C of an [H, W] or [H, W, C] image.
struct ImageDims {
  int64_t h, w, c;
};

llvm::Expected<ImageDims> imageDims(const TensorOp &op, const Array &in) {
  if (in.rank() == 2)
    return ImageDims{in.shape[0], in.shape[1], 1};
  if (in.rank() == 3)
    return ImageDims{in.shape[0], in.shape[1], in.shape[2]};
  return opError(op, "expected an image [H, W] or [H, W, C], got " +
                         in.typeStr());
}

/// A new image of `in`'s channels at h x w, a size the user chose: too
/// large for memory is the op's error.
llvm::Expected<Array> imageLike(const TensorOp &op, const Array &in,
                                ElemType type, int64_t h, int64_t w) {
  llvm::SmallVector<int64_t, 3> shape = {h, w};
  if (in.rank() == 3)
    shape.push_back(in.shape[2]);
  llvm::Expected<Array> out = Array::tryAllocate(type, shape);
  if (!out)
    return opError(op, "output " + llvm::toString(out.takeError()));
  return out;
}

llvm::Expected<Array> rescale(const TensorOp &op, const Array &in) {
  if (in.type == ElemType::Bool)
    return opError(op, "expected numeric data, got " + in.typeStr());
  Array out = Array::allocate(ElemType::F32, in.shape);
  float *dst = out.mutableData<float>();
  int64_t n = in.numElements();
  float scale = op.rescale, shift = op.shift;
  visitType(in.type, [&](auto tag) {
    using T = decltype(tag);
    const T *src = in.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      float scaled = static_cast<float>(src[i]) * scale;
      dst[i] = scaled + shift;
    }
  });
  return out;
}

llvm::Expected<Array> normalize(const TensorOp &op, const Array &in) {
  int64_t channels, inner, outer;
  if (in.rank() == 2) {
    channels = 1, inner = 1, outer = in.numElements();
  } else if (in.rank() == 3) {
    channels = op.isHwc ? in.shape[2] : in.shape[0];
    // HWC: channel is the fastest dim; CHW: the slowest.
    inner = op.isHwc ? 1 : in.shape[1] * in.shape[2];
    outer = op.isHwc ? in.shape[0] * in.shape[1] : 1;
  } else {
    return opError(op, "expected an image [H, W] or " +
                           llvm::Twine(op.isHwc ? "[H, W, C]" : "[C, H, W]") +
                           ", got " + in.typeStr());
  }
  size_t given = op.mean.size();
  if (given != 1 && int64_t(given) != channels)
    return opError(op, llvm::Twine(given) + " mean/std values for an image "
                           "of " + llvm::Twine(channels) + " channels (" +
                           in.typeStr() + ")");
  if (in.type == ElemType::Bool)
    return opError(op, "expected numeric data, got " + in.typeStr());
  Array x = castArray(in, ElemType::F32);
  Array out = Array::allocate(ElemType::F32, in.shape);
  const float *src = x.data<float>();
  float *dst = out.mutableData<float>();
  if (channels == 1 || given == 1) {
    float mean = op.mean[0], std = op.std[0];
    for (int64_t i = 0, n = in.numElements(); i < n; ++i) {
      float centered = src[i] - mean;
      dst[i] = centered / std;
    }
    return out;
  }
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t c = 0; c < channels; ++c) {
      float mean = op.mean[c], std = op.std[c];
      int64_t base = (o * channels + c) * inner;
      for (int64_t i = 0; i < inner; ++i) {
        float centered = src[base + i] - mean;
        dst[base + i] = centered / std;
      }
    }
  return out;
}

llvm::Expected<Array> hwc2chw(const TensorOp &op, const Array &in) {
  if (in.rank() == 2)
    return in; // MindSpore leaves an [H, W] image as it is.
  if (in.rank() != 3)
    return opError(op, "expected an image [H, W, C], got " + in.typeStr());
  int64_t h = in.shape[0], w = in.shape[1], c = in.shape[2];
  if (c == 1 || h * w == 1)
    return in.reshaped({c, h, w}); // Same bytes in either layout.
  Array out = Array::allocate(in.type, {c, h, w});
  size_t size = elemSize(in.type);
  const uint8_t *src = in.bytes;
  uint8_t *dst = out.mutableData<uint8_t>();
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t p = 0; p < h * w; ++p)
      std::memcpy(dst + (ch * h * w + p) * size, src + (p * c + ch) * size,
                  size);
  return out;
}

template <typename T> T fromDouble(double v) {
  if constexpr (std::is_same_v<T, uint8_t>)
    return static_cast<uint8_t>(std::clamp(std::nearbyint(v), 0.0, 255.0));
  else
    return static_cast<T>(v);
}

/// Source index and weight of output coordinate `d` along a dim of `in`
/// elements scaled to `out`: OpenCV's INTER_LINEAR mapping (pixel centers
/// aligned, clamped at the borders).
void linearTap(int64_t d, int64_t in, int64_t out, int64_t &i0, int64_t &i1,
               double &f) {
  double s = (d + 0.5) * double(in) / double(out) - 0.5;
  double fl = std::floor(s);
  i0 = static_cast<int64_t>(fl);
  f = s - fl;
  if (i0 < 0) {
    i0 = 0;
    f = 0;
  }
  if (i0 >= in - 1) {
    i0 = in - 1;
    f = 0;
  }
  i1 = std::min(i0 + 1, in - 1);
}

/// The source taps of output `d` along an axis: one (nearest) or two
/// neighbours with the second's weight `f` (bilinear).
void sourceTap(Interpolation interpolation, int64_t d, int64_t in,
               int64_t out, int64_t &i0, int64_t &i1, double &f) {
  if (interpolation == Interpolation::Nearest) {
    i0 = i1 = std::min(in - 1, (d * in) / out);
    f = 0;
    return;
  }
  linearTap(d, in, out, i0, i1, f);
}

llvm::Expected<Array> resize(const TensorOp &op, const Array &in) {
  auto dims = imageDims(op, in);
  if (!dims)
    return dims.takeError();
  if (in.type != ElemType::U8 && in.type != ElemType::F32)
    return opError(op, "supports uint8 and float32 images, got " +
                           in.typeStr());
  int64_t h = dims->h, w = dims->w, c = dims->c;
  if (h == 0 || w == 0)
    return opError(op, "empty image " + in.typeStr());
  int64_t oh, ow;
  if (op.size.size() == 2) {
    oh = op.size[0], ow = op.size[1];
  } else if (h <= w) { // The shorter side becomes size[0].
    oh = op.size[0], ow = static_cast<int64_t>(double(w) * oh / h);
  } else {
    ow = op.size[0], oh = static_cast<int64_t>(double(h) * ow / w);
  }
  if (oh <= 0 || ow <= 0)
    return opError(op, "output size [" + llvm::Twine(oh) + ", " +
                           llvm::Twine(ow) + "] for " + in.typeStr() +
                           " is empty");
  llvm::Expected<Array> image = imageLike(op, in, in.type, oh, ow);
  if (!image)
    return image.takeError();
  Array &out = *image;
  visitType(in.type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, float>) {
      const T *src = in.data<T>();
      T *dst = out.template mutableData<T>();
      for (int64_t y = 0; y < oh; ++y) {
        int64_t y0, y1;
        double fy;
        sourceTap(op.interpolation, y, h, oh, y0, y1, fy);
        for (int64_t x = 0; x < ow; ++x) {
          int64_t x0, x1;
          double fx;
          sourceTap(op.interpolation, x, w, ow, x0, x1, fx);
          for (int64_t ch = 0; ch < c; ++ch) {
            auto at = [&](int64_t yy, int64_t xx) {
              return double(src[(yy * w + xx) * c + ch]);
            };
            double top = at(y0, x0) * (1 - fx) + at(y0, x1) * fx;
            double bottom = at(y1, x0) * (1 - fx) + at(y1, x1) * fx;
            dst[(y * ow + x) * c + ch] =
                fromDouble<T>(top * (1 - fy) + bottom * fy);
          }
        }
      }
    }
  });
  return out;
}

llvm::Expected<Array> randomCrop(const TensorOp &op, const Array &in,
                                 Rng &rng) {
  auto dims = imageDims(op, in);
  if (!dims)
    return dims.takeError();
  if (in.type == ElemType::Bool)
    return opError(op, "expected numeric data, got " + in.typeStr());
  int64_t h = dims->h, w = dims->w, c = dims->c;
  int64_t left = op.padding[0], top = op.padding[1];
  int64_t ph = h + top + op.padding[3], pw = w + left + op.padding[2];
  int64_t ch = op.size[0], cw = op.size[1];
  if (op.padIfNeeded) {
    // Pad both sides evenly to reach the crop size.
    if (ph < ch) {
      top += ch - ph;
      ph = ch + (ch - ph);
    }
    if (pw < cw) {
      left += cw - pw;
      pw = cw + (cw - pw);
    }
  }
  if (ph < ch || pw < cw)
    return opError(op, "crop size [" + llvm::Twine(ch) + ", " +
                           llvm::Twine(cw) + "] is larger than the " +
                           (ph != h || pw != w ? "padded " : "") + "image [" +
                           llvm::Twine(ph) + ", " + llvm::Twine(pw) +
                           "] (" + in.typeStr() + ")");
  if (op.fillValue.size() != 1 && int64_t(op.fillValue.size()) != c)
    return opError(op, llvm::Twine(op.fillValue.size()) +
                           " fill values for an image of " +
                           llvm::Twine(c) + " channels");
  int64_t y = std::uniform_int_distribution<int64_t>(0, ph - ch)(rng);
  int64_t x = std::uniform_int_distribution<int64_t>(0, pw - cw)(rng);
  llvm::Expected<Array> image = imageLike(op, in, in.type, ch, cw);
  if (!image)
    return image.takeError();
  Array &out = *image;
  visitType(in.type, [&](auto tag) {
    using T = decltype(tag);
    const T *src = in.data<T>();
    T *dst = out.template mutableData<T>();
    for (int64_t oy = 0; oy < ch; ++oy)
      for (int64_t ox = 0; ox < cw; ++ox)
        for (int64_t k = 0; k < c; ++k) {
          int64_t sy = oy + y - top, sx = ox + x - left;
          bool inside = sy >= 0 && sy < h && sx >= 0 && sx < w;
          double fill = op.fillValue.size() == 1 ? op.fillValue[0]
                                                 : op.fillValue[k];
          dst[(oy * cw + ox) * c + k] =
              inside ? src[(sy * w + sx) * c + k] : static_cast<T>(fill);
        }
  });
  return out;
}

llvm::Expected<Array> randomHorizontalFlip(const TensorOp &op,
                                           const Array &in, Rng &rng) {
  auto dims = imageDims(op, in);
  if (!dims)
    return dims.takeError();
  // Drawn whatever the image, so the sequence of choices depends only on
  // the seed.
  bool flip = std::uniform_real_distribution<double>(0, 1)(rng) < op.prob;
  if (!flip)
    return in;
  Array out = Array::allocate(in.type, in.shape);
  size_t pixel = dims->c * elemSize(in.type);
  uint8_t *dst = out.mutableData<uint8_t>();
  for (int64_t y = 0; y < dims->h; ++y)
    for (int64_t x = 0; x < dims->w; ++x)
      std::memcpy(dst + (y * dims->w + x) * pixel,
                  in.bytes + (y * dims->w + dims->w - 1 - x) * pixel, pixel);
  return out;
}

llvm::Expected<Array> oneHot(const TensorOp &op, const Array &in) {
  if (in.rank() > 1 || isFloat(in.type) || in.type == ElemType::Bool)
    return opError(op, "expected integer class labels, a scalar or [N], "
                       "got " + in.typeStr());
  llvm::SmallVector<int64_t, 2> shape(in.shape.begin(), in.shape.end());
  shape.push_back(op.numClasses);
  bool smooth = op.smoothingRate > 0;
  llvm::Expected<Array> allocated =
      Array::tryAllocate(smooth ? ElemType::F32 : in.type, shape);
  if (!allocated)
    return opError(op, "output " + llvm::toString(allocated.takeError()));
  Array &out = *allocated;
  std::memset(out.mutableData<uint8_t>(), 0, out.byteSize());
  float on = 1.0f, off = 0.0f;
  if (smooth) {
    off = static_cast<float>(op.smoothingRate / double(op.numClasses));
    on = static_cast<float>(1.0 - op.smoothingRate) + off;
  }
  llvm::Error error = llvm::Error::success();
  visitType(in.type, [&](auto tag) {
    using T = decltype(tag);
    const T *src = in.data<T>();
    for (int64_t i = 0, n = in.numElements(); i < n && !error; ++i) {
      int64_t label = static_cast<int64_t>(src[i]);
      if (label < 0 || label >= op.numClasses) {
        error = opError(op, "label " + llvm::Twine(label) +
                                " is outside [0, " +
                                llvm::Twine(op.numClasses) + ")");
        return;
      }
      if (smooth) {
        float *row = out.mutableData<float>() + i * op.numClasses;
        std::fill(row, row + op.numClasses, off);
        row[label] = on;
      } else {
        out.template mutableData<T>()[i * op.numClasses + label] = T(1);
      }
    }
  });
  if (error)
    return std::move(error);
  return out;
}

} // namespace

std::string TensorOp::name() const {
  switch (kind) {
  case OpKind::Rescale: return "Rescale";
  case OpKind::Normalize: return "Normalize";
  case OpKind::HWC2CHW: return "HWC2CHW";
  case OpKind::Resize: return "Resize";
  case OpKind::RandomCrop: return "RandomCrop";
  case OpKind::RandomHorizontalFlip: return "RandomHorizontalFlip";
  case OpKind::TypeCast: return "TypeCast";
  case OpKind::OneHot: return "OneHot";
  }
  return "?";
}

bool TensorOp::isRandom() const {
  return kind == OpKind::RandomCrop || kind == OpKind::RandomHorizontalFlip;
}

llvm::Expected<Array> ms::data::applyOp(const TensorOp &op, const Array &in,
                                        Rng &rng) {
  switch (op.kind) {
  case OpKind::Rescale: return rescale(op, in);
  case OpKind::Normalize: return normalize(op, in);
  case OpKind::HWC2CHW: return hwc2chw(op, in);
  case OpKind::Resize: return resize(op, in);
  case OpKind::RandomCrop: return randomCrop(op, in, rng);
  case OpKind::RandomHorizontalFlip: return randomHorizontalFlip(op, in, rng);
  case OpKind::TypeCast: return castArray(in, op.castTo);
  case OpKind::OneHot: return oneHot(op, in);
  }
  return in;
}
