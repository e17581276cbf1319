# fix: unsafe
import jax

base_key = jax.random.key(7)


def epochs_of_masks():
    masks = []
    for epoch in range(2):
        for step in range(3):
            # the same key for every step of an epoch
            step_key = jax.random.fold_in(base_key, epoch)
            masks.append(jax.random.bernoulli(step_key, 0.5, (6,)))
    return masks


if __name__ == "__main__":
    masks = epochs_of_masks()
    assert not all((masks[0] == m).all() for m in masks[1:3])
