package crashbycrash

// The game's random stream: the seed and a counter kept in the State (Draws), so a saved
// game draws the same cards again when replayed. splitmix64 of (seed, position).

func (s *State) rnd(n int) int {
	s.Draws++
	z := s.Seed + s.Draws*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return int(z % uint64(n))
}

// shuffle puts a[:n] in a random order (Fisher-Yates) from the game's stream.
func (s *State) shuffle(a []Card) {
	for i := len(a) - 1; i > 0; i-- {
		j := s.rnd(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}
