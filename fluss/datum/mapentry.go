package datum

// MapEntry is one key/value pair of a MAP<K, V> value. A MAP value is a []MapEntry in
// the map's stored order; Key is never nil (Fluss map keys are NOT NULL), a nil Value
// is NULL.
type MapEntry struct {
	// Key is the entry's key, in the Go representation of the map's key type.
	Key any
	// Value is the entry's value, in the Go representation of the map's value type,
	// or nil for NULL.
	Value any
}
