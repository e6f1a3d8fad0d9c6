def test_outside_the_gate():
    raise AssertionError("the gate runs only its scope")
