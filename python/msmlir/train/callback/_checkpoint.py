"""ModelCheckpoint and CheckpointConfig: save the train network every
save_checkpoint_steps steps (or seconds) as {prefix}-{epoch}_{step}.ckpt,
keeping at most keep_checkpoint_max files (the oldest go first), through
msmlir.save_checkpoint."""

import os
import re
import time

from ..._checkparam import check_bool, check_non_negative_int
from ..._tensor import Tensor
from ...nn.cell import Cell
from ..serialization import save_checkpoint
from ._callback import Callback

__all__ = ["CheckpointConfig", "ModelCheckpoint"]


def _check_append_info(append_info):
    if append_info is None:
        return []
    if not isinstance(append_info, list):
        raise TypeError("For 'CheckpointConfig', the type of 'append_info' "
                        f"must be list, but got {type(append_info)}.")
    dicts = [a for a in append_info if isinstance(a, dict)]
    if len(dicts) > 1:
        raise ValueError("For 'CheckpointConfig', the element of "
                         "'append_info' must has only one dict.")
    for item in append_info:
        if isinstance(item, str) and item not in ("epoch_num", "step_num"):
            raise ValueError("For 'CheckpointConfig', the value of element "
                             "in the argument 'append_info' must be in "
                             f"['epoch_num', 'step_num'], but got {item}.")
    return append_info


class CheckpointConfig:
    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0,
                 keep_checkpoint_max=5, keep_checkpoint_per_n_minutes=0,
                 integrated_save=True, async_save=False, saved_network=None,
                 append_info=None, enc_key=None, enc_mode="AES-GCM",
                 exception_save=False, crc_check=False, **kwargs):
        counts = (save_checkpoint_steps, save_checkpoint_seconds,
                  keep_checkpoint_max, keep_checkpoint_per_n_minutes)
        for value in counts:
            if value is not None:
                check_non_negative_int(value)
        if not any(counts):
            raise ValueError(
                "For 'CheckpointConfig', the input arguments "
                "'save_checkpoint_steps', 'save_checkpoint_seconds', "
                "'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' "
                "can't be all None or 0.")
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError("For 'CheckpointConfig', the type of "
                            "'saved_network' must be None or Cell, but got "
                            f"{type(saved_network).__name__}.")
        for flag in (integrated_save, async_save, exception_save, crc_check):
            check_bool(flag)
        if save_checkpoint_steps:
            save_checkpoint_seconds = None
        if keep_checkpoint_max:
            keep_checkpoint_per_n_minutes = None
        elif not keep_checkpoint_per_n_minutes:
            keep_checkpoint_max = 1
        self.save_checkpoint_steps = save_checkpoint_steps
        self.save_checkpoint_seconds = save_checkpoint_seconds
        self.keep_checkpoint_max = keep_checkpoint_max
        self.keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        self.integrated_save = integrated_save
        self.async_save = async_save
        self.saved_network = saved_network
        self.append_info = _check_append_info(append_info)
        self.enc_key = enc_key
        self.enc_mode = enc_mode
        self.exception_save = exception_save
        self.crc_check = crc_check

    def get_checkpoint_policy(self):
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes":
                    self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}


def _unique_prefix(directory, prefix):
    """MindSpore's rule for a rerun into the same directory: prefix_N with
    N one more than any used (a plain "prefix-" file counts as 0)."""
    pattern = re.compile(re.escape(prefix) + r"(?:_(\d+))?-")
    used = -1
    for name in os.listdir(directory):
        match = pattern.match(name)
        if match and name.endswith(".ckpt") and \
                not name.endswith("_breakpoint.ckpt"):
            used = max(used, int(match.group(1) or 0))
    return prefix if used < 0 else f"{prefix}_{used + 1}"


class ModelCheckpoint(Callback):
    def __init__(self, prefix="CKP", directory=None, config=None):
        super().__init__()
        if not isinstance(prefix, str) or "/" in prefix:
            raise ValueError("For 'ModelCheckpoint', the argument 'prefix' "
                             "for checkpoint file name is invalid, it must "
                             "be string and does not contain '/', but got "
                             f"{prefix}.")
        if config is None:
            config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError("For 'ModelCheckpoint', the type of argument "
                            "'config' should be 'CheckpointConfig', but got "
                            f"{type(config)}.")
        self._directory = os.path.abspath(directory or os.getcwd())
        os.makedirs(self._directory, exist_ok=True)
        self._config = config
        self._prefix = _unique_prefix(self._directory, prefix)
        self._last_triggered_step = 0
        self._last_time = time.time()
        self._latest_ckpt_file_name = ""

    @property
    def latest_ckpt_file_name(self):
        return self._latest_ckpt_file_name

    def step_end(self, run_context):
        self._save_ckpt(run_context.original_args(), False)

    def end(self, run_context):
        cb = run_context.original_args()
        if cb.cur_step_num != self._last_triggered_step:
            self._save_ckpt(cb, True)

    def _due(self, step):
        config = self._config
        if step == self._last_triggered_step:
            return False
        if config.save_checkpoint_steps:
            return step >= self._last_triggered_step + \
                config.save_checkpoint_steps
        return config.save_checkpoint_seconds and \
            time.time() - self._last_time >= config.save_checkpoint_seconds

    def _save_ckpt(self, cb, force):
        step = cb.cur_step_num
        if not (force or self._due(step)):
            return
        step_in_epoch = (step - 1) % cb.batch_num + 1
        name = f"{self._prefix}-{cb.cur_epoch_num}_{step_in_epoch}.ckpt"
        self._remove_old()
        path = os.path.join(self._directory, name)
        network = self._config.saved_network or cb.train_network
        save_checkpoint(network, path, append_dict=self._append_dict(cb))
        self._latest_ckpt_file_name = path
        self._last_triggered_step = step
        self._last_time = time.time()

    def _save_breakpoint(self, cb):
        """exception_save: the network when training raised, as
        {prefix}-{epoch}_{step}_breakpoint.ckpt."""
        step_in_epoch = (cb.cur_step_num - 1) % cb.batch_num + 1
        name = (f"{self._prefix}-{cb.cur_epoch_num}_{step_in_epoch}"
                "_breakpoint.ckpt")
        network = self._config.saved_network or cb.train_network
        save_checkpoint(network, os.path.join(self._directory, name))

    def _append_dict(self, cb):
        extra = {}
        for item in self._config.append_info:
            if item == "epoch_num":
                extra["epoch_num"] = Tensor(cb.cur_epoch_num)
            elif item == "step_num":
                extra["step_num"] = Tensor(cb.cur_step_num)
            elif isinstance(item, dict):
                extra.update({k: v if isinstance(v, Tensor) else Tensor(v)
                              for k, v in item.items()})
        return extra or None

    def _checkpoints(self):
        pattern = re.compile(re.escape(self._prefix) + r"-\d+_\d+\.ckpt$")
        files = [os.path.join(self._directory, n) for n in
                 os.listdir(self._directory) if pattern.match(n)]
        return sorted(files, key=os.path.getmtime)

    def _remove_old(self):
        """Before a save: drop the oldest file when keep_checkpoint_max are
        there; with keep_checkpoint_per_n_minutes, keep one file per
        window."""
        files = self._checkpoints()
        keep = self._config.keep_checkpoint_max
        if keep and len(files) >= keep:
            os.remove(files[0])
            return
        minutes = self._config.keep_checkpoint_per_n_minutes
        if minutes and files:
            window = minutes * 60
            kept = os.path.getmtime(files[0])
            for f in files[1:]:
                if os.path.getmtime(f) - kept < window:
                    os.remove(f)
                else:
                    kept = os.path.getmtime(f)
