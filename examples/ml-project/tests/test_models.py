from visionlab.models import MLP


def test_forward_has_one_value_per_output():
    model = MLP(inputs=4, hidden=8, outputs=2, seed=1)
    assert len(model.forward([0.5, -0.5, 1.0, 0.0])) == 2


def test_hidden_layer_is_never_negative():
    model = MLP(inputs=3, hidden=5, seed=2, outputs=1)
    assert all(h >= 0 for h in model.hidden([1.0, -2.0, 0.5]))


def test_same_seed_same_weights():
    assert MLP(2, 3, 1, seed=9).w1 == MLP(2, 3, 1, seed=9).w1
