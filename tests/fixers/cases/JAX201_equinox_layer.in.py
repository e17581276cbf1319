# fix: unsafe
import equinox as eqx
import jax


def surgery(key):
    linear = eqx.nn.Linear(3, 2, key=key)
    linear.weight[0] = 0.0  # zero the first output's weights
    return linear


def padded_embedding(key):
    embed = eqx.nn.Embedding(10, 4, key=key)
    embed.weight[0, :] = 0.0
    return embed


if __name__ == "__main__":
    print(surgery(jax.random.key(0)).weight, padded_embedding(jax.random.key(1)).weight[0])
