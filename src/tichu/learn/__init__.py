"""Learning on our rules: the PettingZoo environment (:mod:`tichu.learn.env`) and the training
data from records (:mod:`tichu.learn.export`), which need the optional extra ``learn``; the
OpenSpiel game ``python_tichu`` (:mod:`tichu.learn.spiel`) and OpenSpiel's ISMCTS against our
agents (:mod:`tichu.learn.spiel_match`), which need the optional extra ``spiel``."""
