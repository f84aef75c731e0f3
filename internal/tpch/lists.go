package tpch

import "strings"

// The specification's value lists (clause 4.2.2.13 and 4.2.3).
var (
	regionNames = []string{"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"}
	// nations: name and region key, nation key = index.
	nations = []struct {
		name   string
		region int
	}{
		{"ALGERIA", 0}, {"ARGENTINA", 1}, {"BRAZIL", 1}, {"CANADA", 1}, {"EGYPT", 4},
		{"ETHIOPIA", 0}, {"FRANCE", 3}, {"GERMANY", 3}, {"INDIA", 2}, {"INDONESIA", 2},
		{"IRAN", 4}, {"IRAQ", 4}, {"JAPAN", 2}, {"JORDAN", 4}, {"KENYA", 0},
		{"MOROCCO", 0}, {"MOZAMBIQUE", 0}, {"PERU", 1}, {"CHINA", 2}, {"ROMANIA", 3},
		{"SAUDI ARABIA", 4}, {"VIETNAM", 2}, {"RUSSIA", 3}, {"UNITED KINGDOM", 3}, {"UNITED STATES", 1},
	}
	typeSyl1      = []string{"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"}
	typeSyl2      = []string{"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"}
	typeSyl3      = []string{"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"}
	containerSyl1 = []string{"SM", "LG", "MED", "JUMBO", "WRAP"}
	containerSyl2 = []string{"CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"}
	segments      = []string{"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"}
	priorities    = []string{"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"}
	instructions  = []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	modes         = []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	colours       = strings.Fields(`almond antique aquamarine azure beige bisque black blanched blue blush
		brown burlywood burnished chartreuse chiffon chocolate coral cornflower cornsilk cream cyan
		dark deep dim dodger drab firebrick floral forest frosted gainsboro ghost goldenrod green
		grey honeydew hot indian ivory khaki lace lavender lawn lemon light lime linen magenta
		maroon medium metallic midnight mint misty moccasin navajo navy olive orange orchid pale
		papaya peach peru pink plum powder puff purple red rose rosy royal saddle salmon sandy
		seashell sienna sky slate smoke snow spring steel tan thistle tomato turquoise violet
		wheat white yellow`)
)

// The text grammar's word lists (clause 4.2.2.10), abridged; words that the queries
// look for (special, requests, Customer, Complaints) are among them.
var (
	nouns = strings.Fields(`foxes ideas theodolites pinto_beans instructions dependencies excuses
		platelets asymptotes courts dolphins multipliers sauternes warthogs frets dinos attainments
		somas Tiresias patterns forges braids hockey_players frays warhorses dugouts notornis
		epitaphs pearls tithes waters orbits gifts sheaves depths sentiments decoys realms pains
		grouches escapades packages packages packages requests requests accounts accounts accounts
		deposits deposits deposits`)
	verbs = strings.Fields(`sleep wake are cajole haggle nag use boost affix detect integrate
		maintain nod was lose sublate solve thrash promise engage hinder print x-ray breach eat
		grow impress mold poach serve run dazzle snooze doze unwind kindle play hang believe doubt`)
	adjectives = strings.Fields(`special pending unusual express furious sly careful blithe quick
		fluffy slow quiet ruthless thin close dogged daring brave stealthy permanent enticing idle
		busy regular final ironic even bold silent`)
	adverbs = strings.Fields(`sometimes always never furiously slyly carefully blithely quickly
		fluffily slowly quietly ruthlessly thinly closely doggedly daringly bravely stealthily
		permanently enticingly idly busily regularly finally ironically evenly boldly silently`)
	prepositions = strings.Fields(`about above according_to across after against along
		alongside_of among around at atop before behind beneath beside besides between beyond by
		despite during except for from in_place_of inside instead_of into near of on outside
		over past since through throughout to toward under until up upon without with within`)
	auxiliaries = strings.Fields(`do may might shall will would can could should ought_to must
		will_have_to shall_have_to could_have_to should_have_to must_have_to need_to try_to`)
	terminators = []string{".", ";", ":", "?", "!", "--"}
)
