"""Learning on our rules: the PettingZoo environment (:mod:`tichu.learn.env`) and the training
data from records (:mod:`tichu.learn.export`). Needs the optional extra ``learn``."""
