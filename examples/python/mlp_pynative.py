# Seed program 1 (PyNative mode): the MindSpore tutorial "使用静态图加速"
# (accelerating with static graphs), section 1.2, with only the imports
# changed to msmlir. Run: PYTHONPATH=build/python /usr/bin/python3 examples/python/mlp_pynative.py

# Import numpy as np
import numpy as np
# Import msmlir as ms
import msmlir as ms
# Import nn (to build networks) and Tensor (to create tensors)
from msmlir import nn, Tensor
# Set the execution mode to dynamic graph (PyNative) mode: ops run at once,
# which makes debugging easy

ms.set_context(mode=ms.PYNATIVE_MODE)

# Define a class Network, subclass of nn.Cell, that builds the network
class Network(nn.Cell):
	# The initializer defines the network
    def __init__(self):
        # Call the parent class's constructor
        super().__init__()
        # A Flatten layer: flattens the input to one dimension per sample
        self.flatten = nn.Flatten()
        # A SequentialCell of three fully connected layers and two ReLUs
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28*28, 512),  # first fully connected layer, 28*28 inputs, 512 outputs
            nn.ReLU(),             # first ReLU activation
            nn.Dense(512, 512),    # second fully connected layer, 512 inputs and outputs
            nn.ReLU(),             # second ReLU activation
            nn.Dense(512, 10)      # third fully connected layer, 512 inputs, 10 outputs (10 classes)
        )

    # The forward computation
    def construct(self, x):
        # Flatten the input x
        x = self.flatten(x)
        # Run the flattened tensor through the SequentialCell to get logits
        logits = self.dense_relu_sequential(x)
        # Return the logits
        return logits

# Instantiate Network
model = Network()
# An all-ones float32 tensor of shape [64, 1, 28, 28]: a batch of 64
# single-channel 28x28 images whose pixels are all 1
input = Tensor(np.ones([64, 1, 28, 28]).astype(np.float32))
# Run the model on the input
output = model(input)
# Print the result
print(output)
