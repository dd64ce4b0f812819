"""Training one model beyond one core: iterative parameter mixing on ``dask.distributed``.

:class:`ParameterMixingClassifier` trains an olearn online estimator over shards (in-memory
rows, a store of :mod:`olearn.datasets.store`, one store per shard, or a Dask array of
row chunks) and mixes the shards' states after every epoch by the family's rule
(:func:`mix_states`, derived in :mod:`olearn.distributed.mixing`).  Needs
``dask[distributed]`` (``pip install olearn[dask]``) unless ``client="serial"``.
"""

from olearn.distributed.classifier import ParameterMixingClassifier
from olearn.distributed.mixing import mix_states

__all__ = ["ParameterMixingClassifier", "mix_states"]
