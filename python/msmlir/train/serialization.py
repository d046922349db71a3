"""Checkpoints: save_checkpoint, load_checkpoint, load_param_into_net.

Files are MindSpore's protobuf .ckpt by default, or safetensors with
format="safetensors" (MindSpore 2.4's); loading tells them apart by
content. Reading and writing are the runtime's C++ code
(Runtime/Formats/Checkpoint.h, the code ms-run's --params uses); every
save is atomic."""

import os

from .. import _msmlir as native
from .._runtime import HostTensor, MSError
from .._tensor import Parameter, Tensor
from ..nn.cell import Cell

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]


def _host(value, name):
    if isinstance(value, Tensor):
        t = value._t
        if t.__class__ is not HostTensor:
            raise MSError(f"save_checkpoint: '{name}' is a symbolic tensor")
        return t
    return Tensor(value)._t


def _refuse(fn, **options):
    """A clear error for MindSpore options ms does not implement."""
    for key, value in options.items():
        if value not in (None, False):
            what = {"enc_key": "encrypted checkpoints",
                    "dec_key": "encrypted checkpoints",
                    "crc_check": "CRC-checked checkpoints"}[key]
            raise ValueError(f"{fn}: {key} is not supported ({what} are "
                             "not implemented in msmlir)")


def _check_format(fn, format):
    if format not in ("ckpt", "safetensors"):
        raise ValueError(f"{fn}: format must be 'ckpt' or 'safetensors', "
                         f"got {format!r}")


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True,
                    async_save=False, append_dict=None, enc_key=None,
                    enc_mode="AES-GCM", choice_func=None, crc_check=False,
                    format="ckpt", **kwargs):
    """Writes a Cell's parameters (or a dict name -> Tensor, or a list of
    {"name": ..., "data": ...}) as MindSpore's .ckpt (format="ckpt", the
    default) or as safetensors (format="safetensors"). The file name is
    used as given (MindSpore appends a missing ".ckpt")."""
    _refuse("save_checkpoint", enc_key=enc_key, crc_check=crc_check)
    _check_format("save_checkpoint", format)
    entries = []
    if isinstance(save_obj, Cell):
        entries = list(save_obj.parameters_dict().items())
    elif isinstance(save_obj, dict):
        entries = list(save_obj.items())
    elif isinstance(save_obj, (list, tuple)):
        for item in save_obj:
            if not isinstance(item, dict) or "name" not in item or \
                    "data" not in item:
                raise TypeError("save_checkpoint: list items must be "
                                "{'name': ..., 'data': ...}")
            entries.append((item["name"], item["data"]))
    else:
        raise TypeError("save_checkpoint: save_obj must be a Cell, a dict or "
                        f"a list, got {type(save_obj).__name__}")
    if append_dict:
        entries.extend(append_dict.items())
    if choice_func is not None:
        entries = [(n, v) for n, v in entries if choice_func(n)]
    seen = set()
    tensors = []
    for name, value in entries:
        if name in seen:
            raise ValueError(f"save_checkpoint: duplicate parameter name "
                             f"'{name}'")
        seen.add(name)
        tensors.append((name, _host(value, name)))
    path = os.fspath(ckpt_file_name)
    native.save_checkpoint(path, tensors, format)


def load_checkpoint(ckpt_file_name, net=None, strict_load=False,
                    filter_prefix=None, dec_key=None, dec_mode="AES-GCM",
                    specify_prefix=None, choice_func=None, crc_check=False,
                    format="ckpt", **kwargs):
    """Reads a MindSpore .ckpt or a safetensors file into {name:
    Parameter}; loads it into `net` too when given."""
    path = os.fspath(ckpt_file_name)
    if not os.path.exists(path):
        raise ValueError(f"load_checkpoint: {path}: no such file")
    params = {}
    prefixes = ((filter_prefix,) if isinstance(filter_prefix, str) else
                tuple(filter_prefix or ()))
    specify = ((specify_prefix,) if isinstance(specify_prefix, str) else
               tuple(specify_prefix or ()))
    _refuse("load_checkpoint", dec_key=dec_key, crc_check=crc_check)
    _check_format("load_checkpoint", format)
    # The file's content, not `format`, decides how it is read.
    for name, host in native.load_checkpoint(path):
        if prefixes and name.startswith(prefixes):
            continue
        if specify and not name.startswith(specify):
            continue
        if choice_func is not None and not choice_func(name):
            continue
        t = object.__new__(Tensor)
        t._t = host
        params[name] = Parameter(t, name=name)
    if net is not None:
        load_param_into_net(net, params, strict_load)
    return params


def load_param_into_net(net, parameter_dict, strict_load=False):
    """Copies parameters by name into `net`. Returns (param_not_load,
    ckpt_not_load): the net's parameters the dict did not have, and the
    dict's entries the net did not use. Every entry is checked before any
    parameter changes, so a bad one leaves the net as it was. Graphs
    already compiled for `net` use the new values on their next call."""
    if not isinstance(net, Cell):
        raise TypeError("load_param_into_net: net must be a Cell")
    if not isinstance(parameter_dict, dict):
        raise TypeError("load_param_into_net: parameter_dict must be a dict")
    updates, param_not_load = _checked_updates(net, parameter_dict)
    used = {name for name, _, _ in updates}
    ckpt_not_load = [n for n in parameter_dict if n not in used]
    if strict_load and (param_not_load or ckpt_not_load):
        raise ValueError(f"load_param_into_net (strict): not loaded "
                         f"{param_not_load}, unused {ckpt_not_load}")
    for _, param, value in updates:
        copy = object.__new__(Tensor)
        copy._t = value._t.clone()  # the net owns its data, as in MindSpore
        param.set_data(copy)
    return param_not_load, ckpt_not_load


def _checked_updates(net, parameter_dict):
    """([(name, Parameter, value Tensor)], names the dict lacks), or the
    error of the first entry that does not fit its Parameter."""
    updates, missing = [], []
    for name, param in net.parameters_dict().items():
        value = parameter_dict.get(name)
        if value is None:
            missing.append(name)
            continue
        if not isinstance(value, Tensor):
            value = Tensor(value)
        if tuple(value.shape) != tuple(param.shape):
            raise ValueError(
                f"load_param_into_net: parameter '{name}' has shape "
                f"{list(param.shape)} in the net but {list(value.shape)} in "
                "the checkpoint")
        if value.dtype is not param.dtype:
            raise TypeError(
                f"load_param_into_net: parameter '{name}' is "
                f"{param.dtype} in the net but {value.dtype} in the "
                "checkpoint")
        updates.append((name, param, value))
    return updates, missing
