"""Plain Python helpers: no JAX import here, yet train.py traces them."""


def clamp_low(value, floor):
    if value < floor:
        return floor
    return value
