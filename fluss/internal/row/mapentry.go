package row

// MapEntry is one key/value pair of a MAP<K, V> value. A MAP value is a
// []MapEntry in the map's stored order; Key is never nil (Fluss map keys are
// NOT NULL), Value nil means NULL.
type MapEntry struct {
	Key   any
	Value any
}
