from .norm import rms
