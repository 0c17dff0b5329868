package tsq

import "math/rand/v2"

// softDelete and retention soft-delete rows in the model once the
// store has soft deletes; until then they do nothing.
func (m *modelStore) softDelete(rng *rand.Rand, or *oracle) {}

func (m *modelStore) retention(rng *rand.Rand, or *oracle) {}
