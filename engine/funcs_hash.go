package engine

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"unicode/utf16"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// The hash family: digests of a string's UTF-8 bytes as lower-case hex, as
// Flink; UUID; HASH_CODE, Java's String.hashCode.

func init() {
	digest := func(name string, h func() hash.Hash, example string) *FuncDef {
		size := 2 * h().Size()
		return &FuncDef{Name: name, Family: "hash", Signature: fmt.Sprintf("%s(s STRING) → CHAR(%d)", name, size),
			Desc: "the " + name + " digest of s's UTF-8 bytes, in lower-case hex", Example: example,
			Type: fixedType("s", 0, types.NewChar(size)), Kernel: digestKernel(func(int64) func() hash.Hash { return h })}
	}
	register(
		digest("MD5", md5.New, "MD5('') = 'd41d8cd98f00b204e9800998ecf8427e'"),
		digest("SHA1", sha1.New, "SHA1('') = 'da39a3ee5e6b4b0d3255bfef95601890afd80709'"),
		digest("SHA224", sha256.New224, "SHA224('') = 'd14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f'"),
		digest("SHA256", sha256.New, "SHA256('') = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'"),
		digest("SHA384", sha512.New384, "SHA384('a') = '54a59b9f22b0b808…'"),
		digest("SHA512", sha512.New, "SHA512('a') = '1f40fc92da241694…'"),
		&FuncDef{Name: "SHA2", Family: "hash", Signature: "SHA2(s STRING, bits INT) → STRING",
			Desc: "the SHA-2 digest of s with 224, 256, 384 or 512 bits, in lower-case hex (other bits are an error)", Example: "SHA2('', 224) = 'd14a028c…'",
			Type: fixedType("si", 0, stringType), Kernel: digestKernel(func(bits int64) func() hash.Hash {
				switch bits {
				case 224:
					return sha256.New224
				case 256:
					return sha256.New
				case 384:
					return sha512.New384
				case 512:
					return sha512.New
				}
				return nil
			})},
		&FuncDef{Name: "UUID", Family: "hash", Signature: "UUID() → STRING NOT NULL",
			Desc: "a random (version 4) UUID", Example: "UUID() = '3d3c68f7-f608-473f-b60c-b0c44ad4cc4e'",
			Volatile: true, Type: fixedType("", 0, stringType.AsNotNull()), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				var u [16]byte
				return stringRows(ec, n, nil, true, func(int) (string, bool, error) {
					if _, err := rand.Read(u[:]); err != nil {
						return "", false, err
					}
					u[6] = u[6]&0x0f | 0x40
					u[8] = u[8]&0x3f | 0x80
					h := hex.EncodeToString(u[:])
					return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], true, nil
				})
			}},
		&FuncDef{Name: "HASH_CODE", Family: "hash", Signature: "HASH_CODE(s STRING) → INT",
			Desc: "Java's String.hashCode of s", Example: "HASH_CODE('abc') = 96354",
			Type: fixedType("s", 0, types.NewInt()), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				s := strs(ins[0])
				return intRows(ec, c.T, n, ins, false, func(i int) (int64, bool, error) {
					var h int32
					for _, u := range utf16.Encode([]rune(s(i))) {
						h = 31*h + int32(u)
					}
					return int64(h), true, nil
				})
			}},
	)
}

// digestKernel hashes argument 0; a second argument (SHA2's bits) picks the hash.
func digestKernel(pick func(bits int64) func() hash.Hash) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		s := strs(ins[0])
		bits := func(int) int64 { return 0 }
		if len(ins) > 1 {
			bits = intValuesOf(ins[1])
		}
		hashes := map[int64]hash.Hash{}
		buf := make([]byte, 0, 128)
		return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
			b := bits(i)
			h, ok := hashes[b]
			if !ok {
				mk := pick(b)
				if mk == nil {
					return "", false, fmt.Errorf("%s takes 224, 256, 384 or 512 bits, not %d", c.Name, b)
				}
				h = mk()
				hashes[b] = h
			}
			h.Reset()
			if _, err := h.Write([]byte(s(i))); err != nil {
				return "", false, fmt.Errorf("%s: %w", c.Name, err)
			}
			buf = h.Sum(buf[:0])
			return hex.EncodeToString(buf), true, nil
		})
	}
}
