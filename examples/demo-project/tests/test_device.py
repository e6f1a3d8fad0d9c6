import pytest

from tinyml import device


def test_fake_gpus(tmp_path):
    found = device.detect({"TINYML_FAKE_GPUS": "2"}, dev_root=tmp_path)
    assert (found.count, found.backend) == (2, "fake")
    with pytest.raises(ValueError, match="TINYML_FAKE_GPUS"):
        device.detect({"TINYML_FAKE_GPUS": "two"})


def test_device_nodes(tmp_path):
    assert device.detect({}, dev_root=tmp_path).backend == "none"
    (tmp_path / "kfd").touch()
    assert device.detect({}, dev_root=tmp_path) == device.Devices(1, "rocm", f"{tmp_path}/kfd")
    for name in ("nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm"):
        (tmp_path / name).touch()
    found = device.detect({}, dev_root=tmp_path)
    assert (found.count, found.backend) == (2, "cuda")


@pytest.mark.parametrize("mask, visible", [("", 0), ("-1", 0), ("0,7,1", 1), ("0,1,2,3,4,5", 4)])
def test_cuda_visible_devices_narrows(mask, visible):
    assert device.visible_gpu_count({"TINYML_FAKE_GPUS": "4", "CUDA_VISIBLE_DEVICES": mask}) == visible
