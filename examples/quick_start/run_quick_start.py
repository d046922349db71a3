#!/usr/bin/env python3
"""Runs quick_start.py (MindSpore's Quick Start with only its imports
changed) on Debian's Fashion-MNIST and checks it learned.

  PYTHONPATH=build/python /usr/bin/python3 \\
      examples/quick_start/run_quick_start.py            # the whole tutorial
  ... --epochs 1 --batches 100 --min-accuracy 0.5       # the ctest slice

The tutorial reads MNIST_Data/train and MNIST_Data/test relative to the
working directory; this makes them in a temporary directory as links to the
Fashion-MNIST IDX files and runs the script there. Exits 1 if the script
fails or its last test accuracy is below --min-accuracy (chance is 0.1).
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SPLITS = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
          "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}


def make_mnist_data(root, dataset_dir):
    for split, names in SPLITS.items():
        os.makedirs(os.path.join(root, "MNIST_Data", split))
        for name in names:
            source = os.path.join(dataset_dir, name)
            if not os.path.exists(source):
                sys.exit(f"{source}: missing (install Debian's "
                         "dataset-fashion-mnist or pass --dataset-dir)")
            os.symlink(source, os.path.join(root, "MNIST_Data", split, name))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dataset-dir", default="/usr/share/datasets/fashion-mnist")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batches", type=int, default=0,
                   help="batches per epoch and test batches (0: all)")
    p.add_argument("--min-accuracy", type=float, default=0.0)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as root:
        make_mnist_data(root, args.dataset_dir)
        # The script runs in `root`: keep a relative PYTHONPATH working.
        path = [os.path.abspath(d) for d in
                os.environ.get("PYTHONPATH", "").split(os.pathsep) if d]
        env = dict(os.environ, QUICK_START_EPOCHS=str(args.epochs),
                   QUICK_START_BATCHES=str(args.batches),
                   PYTHONPATH=os.pathsep.join(path))
        run = subprocess.run(
            [sys.executable, os.path.join(HERE, "quick_start.py")], cwd=root,
            env=env, stdout=subprocess.PIPE, text=True)
    sys.stdout.write(run.stdout)
    if run.returncode != 0:
        sys.exit(f"quick_start.py exited with {run.returncode}")
    lines = [l for l in run.stdout.splitlines()
             if l.startswith("QUICK_START_ACCURACY ")]
    accuracy = float(lines[-1].split()[1])
    if accuracy < args.min_accuracy:
        sys.exit(f"accuracy {accuracy:.4f} is below {args.min_accuracy}")
    print(f"ok: accuracy {accuracy:.4f} >= {args.min_accuracy}")


if __name__ == "__main__":
    main()
