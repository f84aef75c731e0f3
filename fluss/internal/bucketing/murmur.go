// Package bucketing maps encoded keys to buckets the way Fluss's default bucketing
// function does (FlussBucketingFunction, MurmurHashUtils, MathUtils in 0.9.1), and
// builds partition names from partition values (PartitionUtils, PartitionGetter).
// Tables with a datalake format of paimon or iceberg bucket differently
// (PaimonBucket, IcebergBucket in lake.go, chosen by ForLake); lance and
// non-lake tables use Bucket.
package bucketing

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// Seed is the seed of Fluss's Murmur3 variant (MurmurHashUtils.DEFAULT_SEED).
const Seed = 42

const (
	c1 = 0xcc9e2d51
	c2 = 0x1b873593
)

func mixK1(k uint32) uint32 {
	k *= c1
	k = bits.RotateLeft32(k, 15)
	return k * c2
}

func mixH1(h, k uint32) uint32 {
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

func fmix(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// HashBytes is MurmurHashUtils.hashBytes: Murmur3-32 with seed 42 over 4-byte
// little-endian words, except that each tail byte (len%4 of them) gets a round of
// its own, sign-extended to 32 bits. It is not standard Murmur3.
func HashBytes(b []byte) int32 {
	h := uint32(Seed)
	n := len(b) - len(b)%4
	for i := 0; i < n; i += 4 {
		h = mixH1(h, mixK1(binary.LittleEndian.Uint32(b[i:])))
	}
	for _, t := range b[n:] {
		h = mixH1(h, mixK1(uint32(int32(int8(t)))))
	}
	return int32(fmix(h ^ uint32(len(b))))
}

// murmurInt is MathUtils.murmurHash: one more Murmur round over a 32-bit code with
// seed 0, the finalizer, then a non-negative result (MIN_VALUE maps to 0).
func murmurInt(code int32) int32 {
	h := mixH1(0, mixK1(uint32(code)))
	c := int32(fmix(h ^ 4))
	switch {
	case c >= 0:
		return c
	case c != math.MinInt32:
		return -c
	}
	return 0
}

// ErrEmptyKey is returned for a zero-length bucket key, which Fluss rejects.
var ErrEmptyKey = errors.New("bucketing: bucket key must not be empty")

// Bucket returns the bucket of an encoded bucket key among numBuckets buckets
// (FlussBucketingFunction.bucketForRowKey).
func Bucket(key []byte, numBuckets int) (int, error) {
	if len(key) == 0 {
		return 0, ErrEmptyKey
	}
	if numBuckets <= 0 || numBuckets > math.MaxInt32 {
		return 0, fmt.Errorf("bucketing: invalid bucket count %d", numBuckets)
	}
	return int(murmurInt(HashBytes(key)) % int32(numBuckets)), nil
}
