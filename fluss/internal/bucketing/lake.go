package bucketing

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// Function maps an encoded bucket key to a bucket among numBuckets.
type Function func(key []byte, numBuckets int) (int, error)

// ForLake returns the bucketing function Fluss uses for tables of a datalake
// format (BucketingFunction.of in 0.9.1): Bucket for none and lance,
// PaimonBucket for paimon, IcebergBucket for iceberg. The format is matched
// case-insensitively; an unknown one is an error.
func ForLake(format string) (Function, error) {
	switch strings.ToLower(format) {
	case "", "lance":
		return Bucket, nil
	case "paimon":
		return PaimonBucket, nil
	case "iceberg":
		return IcebergBucket, nil
	}
	return nil, fmt.Errorf("bucketing: unknown datalake format %q (known: paimon, iceberg, lance)", format)
}

func checkBucketArgs(key []byte, numBuckets int) error {
	if len(key) == 0 {
		return ErrEmptyKey
	}
	if numBuckets <= 0 || numBuckets > math.MaxInt32 {
		return fmt.Errorf("bucketing: invalid bucket count %d", numBuckets)
	}
	return nil
}

// PaimonBucket is PaimonBucketingFunction: Fluss's MurmurHashUtils.hashBytes
// of the key (a Paimon BinaryRow, whose length is a multiple of 8, so the
// Java tail quirk never applies and the hash equals Paimon's own
// BinaryRow.hashCode), then abs(hash % numBuckets) in 32-bit arithmetic.
func PaimonBucket(key []byte, numBuckets int) (int, error) {
	if err := checkBucketArgs(key, numBuckets); err != nil {
		return 0, err
	}
	r := HashBytes(key) % int32(numBuckets) // Java's %: sign of the dividend
	if r < 0 {
		r = -r
	}
	return int(r), nil
}

// IcebergBucket is IcebergBucketingFunction, Iceberg's bucket transform over
// the key's single-value serialization: standard Murmur3 x86 32-bit with seed
// 0 (Guava's murmur3_32_fixed), masked to non-negative, modulo numBuckets.
func IcebergBucket(key []byte, numBuckets int) (int, error) {
	if err := checkBucketArgs(key, numBuckets); err != nil {
		return 0, err
	}
	h := Murmur3x86(key, 0)
	return int(int32(h&math.MaxInt32) % int32(numBuckets)), nil
}

// Murmur3x86 is the reference MurmurHash3_x86_32: little-endian 4-byte
// blocks, then the 1–3 tail bytes (zero-extended) combined into one block,
// then the finalizer over the length. Unlike HashBytes it is the standard
// algorithm, as Guava's murmur3_32_fixed implements it.
func Murmur3x86(b []byte, seed uint32) uint32 {
	h := seed
	n := len(b) - len(b)%4
	for i := 0; i < n; i += 4 {
		h = mixH1(h, mixK1(binary.LittleEndian.Uint32(b[i:])))
	}
	var k uint32
	switch tail := b[n:]; len(tail) {
	case 3:
		k ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(tail[0])
		h ^= mixK1(k)
	}
	return fmix(h ^ uint32(len(b)))
}
