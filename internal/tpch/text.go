package tpch

import (
	"math/rand/v2"
	"strings"
)

// textPoolSize is the length of the pool comments are cut from, as dbgen cuts them from
// its own (smaller, since the queries only look for a few words).
const textPoolSize = 1 << 20

// textPool builds the pool of grammar sentences (clause 4.2.2.10, simplified): a noun
// phrase, a verb phrase, sometimes a prepositional phrase, and a terminator.
func textPool(rng *rand.Rand) string {
	var b strings.Builder
	b.Grow(textPoolSize + 200)
	pick := func(l []string) string { return strings.ReplaceAll(l[rng.IntN(len(l))], "_", " ") }
	for b.Len() < textPoolSize {
		// noun phrase
		switch rng.IntN(4) {
		case 0:
			b.WriteString(pick(nouns))
		case 1:
			b.WriteString(pick(adjectives) + " " + pick(nouns))
		case 2:
			b.WriteString(pick(adjectives) + ", " + pick(adjectives) + " " + pick(nouns))
		default:
			b.WriteString(pick(adverbs) + " " + pick(adjectives) + " " + pick(nouns))
		}
		b.WriteByte(' ')
		// verb phrase
		switch rng.IntN(4) {
		case 0:
			b.WriteString(pick(verbs))
		case 1:
			b.WriteString(pick(auxiliaries) + " " + pick(verbs))
		case 2:
			b.WriteString(pick(verbs) + " " + pick(adverbs))
		default:
			b.WriteString(pick(auxiliaries) + " " + pick(verbs) + " " + pick(adverbs))
		}
		if rng.IntN(2) == 0 {
			b.WriteString(" " + pick(prepositions) + " the " + pick(nouns))
		}
		b.WriteString(pick(terminators) + " ")
	}
	return b.String()
}

// text cuts a comment of min..max characters from the pool at a random place.
func (g *Generator) text(rng *rand.Rand, min, max int) string {
	n := min + rng.IntN(max-min+1)
	off := rng.IntN(len(g.pool) - n)
	return strings.TrimSpace(g.pool[off : off+n])
}
