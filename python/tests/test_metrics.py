"""mindspore.train metrics: MindSpore's documented examples, random inputs
against numpy (and torch's topk) computations, set_indexes, the name
factory and every error message."""

import numpy as np
import pytest

from msmlir import Tensor
from msmlir.train import (Accuracy, ConfusionMatrix, F1, Fbeta, Loss, MAE,
                          MSE, Metric, Precision, Recall,
                          Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                          TopKCategoricalAccuracy, get_metric_fn, names)

torch = pytest.importorskip("torch")

X = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]], np.float32))
Y = Tensor(np.array([1, 0, 1], np.int32))


def test_documented_examples():
    assert Accuracy()(X, Y) == pytest.approx(0.6666666666666666)
    np.testing.assert_allclose(Precision()(X, Y), [0.5, 1.0])
    np.testing.assert_allclose(Recall()(X, Y), [1.0, 0.5])
    np.testing.assert_allclose(F1()(X, Y), [0.66666667, 0.66666667])
    topk = TopKCategoricalAccuracy(3)
    x = Tensor(np.array([[0.2, 0.5, 0.3, 0.6, 0.2], [0.1, 0.35, 0.5, 0.2, 0.],
                         [0.9, 0.6, 0.2, 0.01, 0.3]], np.float32))
    assert topk(x, Tensor(np.array([2, 0, 1]))) == \
        pytest.approx(0.6666666666666666)
    assert Loss()(Tensor(np.float32(0.2))) == 0.20000000298023224
    p = Tensor(np.array([0.1, 0.2, 0.6, 0.9], np.float32))
    t = Tensor(np.array([0.1, 0.25, 0.7, 0.9], np.float32))
    assert MAE()(p, t) == pytest.approx(0.037499990314245224)
    diff = p.asnumpy().astype(np.float64) - t.asnumpy()
    assert MSE()(p, t) == pytest.approx(np.mean(diff ** 2))
    cm = ConfusionMatrix(2)(Tensor(np.array([1, 0, 1, 0])),
                            Tensor(np.array([1, 0, 0, 1])))
    np.testing.assert_array_equal(cm, [[1.0, 1.0], [1.0, 1.0]])


def _batches(classes=5, n=4, rows=7):
    rng = np.random.default_rng(3)
    return [(rng.uniform(0, 1, (rows, classes)).astype(np.float32),
             rng.integers(0, classes, rows)) for _ in range(n)]


def test_accumulating_classification_metrics_against_numpy():
    acc, prec, rec, fb = Accuracy(), Precision(), Recall(), Fbeta(2.0)
    preds, labels = [], []
    for x, y in _batches():
        for m in (acc, prec, rec, fb):
            m.update(Tensor(x), Tensor(y))
        preds.append(x.argmax(1))
        labels.append(y)
    pred, label = np.concatenate(preds), np.concatenate(labels)
    assert acc.eval() == np.mean(pred == label)
    tp = np.array([np.sum((pred == c) & (label == c)) for c in range(5)])
    predicted = np.array([np.sum(pred == c) for c in range(5)])
    actual = np.array([np.sum(label == c) for c in range(5)])
    np.testing.assert_allclose(prec.eval(), tp / np.maximum(predicted, 1e-300))
    np.testing.assert_allclose(rec.eval(), tp / actual)
    np.testing.assert_allclose(rec.eval(average=True), np.mean(tp / actual))
    np.testing.assert_allclose(fb.eval(), 5 * tp / (4 * actual + predicted))


def test_top_k_against_torch():
    for k, metric in ((1, Top1CategoricalAccuracy()),
                      (5, Top5CategoricalAccuracy()),
                      (3, TopKCategoricalAccuracy(3))):
        hits = total = 0
        for x, y in _batches(classes=8):
            metric.update(Tensor(x), Tensor(y))
            top = torch.topk(torch.from_numpy(x), k, dim=1).indices.numpy()
            hits += sum(int(y[i]) in top[i] for i in range(len(y)))
            total += len(y)
        assert metric.eval() == hits / total


def test_one_hot_labels_and_multilabel():
    one_hot = Tensor(np.array([[0, 1], [1, 0], [0, 1]], np.float32))
    assert Accuracy()(X, one_hot) == Accuracy()(X, Y)
    np.testing.assert_allclose(Precision()(X, one_hot), [0.5, 1.0])
    multi = Accuracy("multilabel")
    multi.update(Tensor(np.array([[0, 1, 1], [1, 0, 1]])),
                 Tensor(np.array([[0, 1, 1], [1, 1, 1]])))
    assert multi.eval() == 0.5


def test_regression_metrics_average_every_element():
    """MindSpore's MAE/MSE divide by the number of rows (a per-row sum for
    2-D inputs); msmlir gives the documented mean over elements."""
    rng = np.random.default_rng(4)
    p, t = rng.uniform(-1, 1, (6, 3)), rng.uniform(-1, 1, (6, 3))
    assert MAE()(Tensor(p), Tensor(t)) == pytest.approx(np.abs(p - t).mean())
    assert MSE()(Tensor(p), Tensor(t)) == pytest.approx(((p - t) ** 2).mean())
    loss = Loss()
    for v in (np.array([1.0, 3.0]), np.array(4.0)):
        loss.update(Tensor(v))
    assert loss.eval() == 3.0


def test_confusion_matrix_normalizations():
    rng = np.random.default_rng(5)
    logits = rng.uniform(0, 1, (20, 3))
    labels = rng.integers(0, 3, 20)
    raw = np.zeros((3, 3))
    for t, p in zip(labels, logits.argmax(1)):
        raw[t, p] += 1
    for mode, want in (("no_norm", raw),
                       ("target", raw / raw.sum(1, keepdims=True)),
                       ("prediction", raw / raw.sum(0, keepdims=True)),
                       ("all", raw / raw.sum())):
        got = ConfusionMatrix(3, normalize=mode)(Tensor(logits),
                                                 Tensor(labels))
        np.testing.assert_allclose(got, np.nan_to_num(want))
    thresholded = ConfusionMatrix(2, threshold=0.7)(
        Tensor(np.array([0.8, 0.6, 0.1])), Tensor(np.array([1, 1, 0])))
    np.testing.assert_array_equal(thresholded, [[1, 0], [1, 1]])


def test_set_indexes_and_lists():
    acc = Accuracy().set_indexes([2, 0])
    acc.update(Y, "ignored", X)
    assert acc.eval() == pytest.approx(2 / 3)
    assert Accuracy()([[0.1, 0.9]], [1]) == 1.0


def test_name_factory():
    assert isinstance(get_metric_fn("acc"), Accuracy)
    assert isinstance(get_metric_fn("top_5_accuracy"),
                      Top5CategoricalAccuracy)
    assert "accuracy" in names() and names() == sorted(names())


def test_user_metric():
    class Count(Metric):
        def clear(self):
            self.n = 0

        def update(self, *inputs):
            self.n += len(inputs)

        def eval(self):
            return self.n
    assert Count()(1, 2, 3) == 3


@pytest.mark.parametrize("call, error, message", [
    (lambda: Accuracy("regression"), TypeError,
     "The argument 'eval_type' must be in"),
    (lambda: Accuracy().update(X), ValueError,
     r"For 'Accuracy.update', it needs 2 inputs \(predicted value, true "
     r"value\), but got 1"),
    (lambda: Accuracy().eval(), RuntimeError,
     "The 'Accuracy' can not be calculated, because the number of samples "
     "is 0"),
    (lambda: Accuracy().update(X, Tensor(np.zeros((3, 2, 2)))), ValueError,
     "For 'Accuracy.update', predicted value"),
    (lambda: TopKCategoricalAccuracy(1.5), TypeError,
     "For 'TopKCategoricalAccuracy', the type of the argument 'k' should be "
     "int"),
    (lambda: TopKCategoricalAccuracy(0), ValueError,
     "For 'TopKCategoricalAccuracy', the argument 'k' must be at least 1"),
    (lambda: Top5CategoricalAccuracy().eval(), RuntimeError,
     "The 'TopKCategoricalAccuracy' can not be calculated"),
    (lambda: Precision().eval(), RuntimeError,
     "The 'Precision' can not be calculated"),
    (lambda: Recall().update(X, Tensor(np.array([1, 0, 5]))), ValueError,
     "For 'Recall.update', predicted value"),
    (lambda: Fbeta(0), ValueError,
     "For 'Fbeta', the argument 'beta' must be greater than 0, but got 0."),
    (lambda: Loss().update(Tensor(np.ones((2, 2)))), ValueError,
     r"For 'Loss.update', the dimension of your input \(loss\) must be 1, "
     "but got 2."),
    (lambda: Loss().eval(), RuntimeError, "The 'Loss' can not be calculated"),
    (lambda: MAE().eval(), RuntimeError, "The 'MAE' can not be calculated"),
    (lambda: ConfusionMatrix(2, normalize="rows"), ValueError,
     "For 'ConfusionMatrix', the argument 'normalize' must be in"),
    (lambda: ConfusionMatrix(2, threshold=1), TypeError,
     "For 'ConfusionMatrix', the argument 'threshold' must be float"),
    (lambda: ConfusionMatrix(2).eval(), RuntimeError,
     "Please call the 'update' method before calling 'eval' method."),
    (lambda: Accuracy().update(X, "labels"), TypeError,
     "For 'Metric' and its derived classes, the input data type must be "
     "tensor, list or numpy.ndarray"),
    (lambda: Accuracy().set_indexes([0.5]), ValueError,
     "For 'set_indexes', the argument 'indexes' must be a list and all its "
     "elements must be int"),
    (lambda: get_metric_fn("auc2"), KeyError,
     "For 'get_metric_fn', unsupported metric auc2"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
