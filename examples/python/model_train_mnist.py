# Trains the seed MLP on Fashion-MNIST with mindspore.train.Model, as a
# MindSpore user writes it; only the import changed (`import msmlir as
# mindspore`). The data is Debian's dataset-fashion-mnist
# (/usr/share/datasets/fashion-mnist, IDX .gz files).
#
#   PYTHONPATH=build/python /usr/bin/python3 examples/python/model_train_mnist.py
#       [--epochs 1] [--batches 0] [--data DIR] [--ckpt-dir DIR] [--sink]
import argparse

import msmlir as mindspore
from msmlir import nn
from msmlir.dataset import FashionMnistDataset, vision, transforms
from msmlir.train import (Model, LossMonitor, TimeMonitor, ModelCheckpoint,
                          CheckpointConfig, Accuracy)

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=1)
parser.add_argument("--batches", type=int, default=0,
                    help="train and test on the first N batches (0: all)")
parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
parser.add_argument("--ckpt-dir", default="./checkpoints")
parser.add_argument("--sink", action="store_true",
                    help="dataset_sink_mode=True")
args = parser.parse_args()


def datapipe(usage, batch_size):
    dataset = FashionMnistDataset(args.data, usage=usage,
                                  shuffle=usage == "train")
    image_transforms = [
        vision.Rescale(1.0 / 255.0, 0),
        vision.Normalize(mean=(0.2860,), std=(0.3530,)),
        vision.HWC2CHW()
    ]
    dataset = dataset.map(image_transforms, 'image')
    dataset = dataset.map(transforms.TypeCast(mindspore.int32), 'label')
    dataset = dataset.batch(batch_size, drop_remainder=True)
    if args.batches:
        dataset = dataset.take(args.batches)
    return dataset


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512),
            nn.ReLU(),
            nn.Dense(512, 512),
            nn.ReLU(),
            nn.Dense(512, 10)
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


mindspore.set_seed(1)
train_dataset = datapipe("train", 64)
test_dataset = datapipe("test", 64)
steps_per_epoch = train_dataset.get_dataset_size()

network = Network()
loss_fn = nn.CrossEntropyLoss()
lr = nn.cosine_decay_lr(0.001, 0.05, steps_per_epoch * args.epochs,
                        steps_per_epoch, args.epochs)
optimizer = nn.Momentum(network.trainable_params(), learning_rate=lr,
                        momentum=0.9)
model = Model(network, loss_fn=loss_fn, optimizer=optimizer,
              metrics={"accuracy": Accuracy()})

config = CheckpointConfig(save_checkpoint_steps=steps_per_epoch,
                          keep_checkpoint_max=2)
checkpoint = ModelCheckpoint(prefix="mlp", directory=args.ckpt_dir,
                             config=config)
model.train(args.epochs, train_dataset,
            callbacks=[LossMonitor(100), TimeMonitor(), checkpoint],
            dataset_sink_mode=args.sink)

result = model.eval(test_dataset)
print(f"Accuracy: {result['accuracy']:.4f}")
print(f"Checkpoint: {checkpoint.latest_ckpt_file_name}")
