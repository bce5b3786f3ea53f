"""What agents share: the hand plan, a seat's knowledge of hidden hands, probabilities and
deal sampling, the situation a policy reads, and the rule policy."""
