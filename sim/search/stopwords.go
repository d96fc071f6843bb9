package search

// stopwords are the English function words the analyzer drops: the word
// list of the Snowball project's English stemmer (pronouns, auxiliaries,
// articles, prepositions, conjunctions and a few adverbs), held here as data
// so that the stemmer dependency needs no stop-word API.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		"a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at",
		"be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
		"can", "did", "do", "does", "doing", "don", "down", "during", "each", "few", "for", "from", "further",
		"had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how",
		"i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself",
		"no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves",
		"out", "over", "own", "s", "same", "she", "should", "so", "some", "such", "t", "than", "that", "the",
		"their", "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through",
		"to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which",
		"while", "who", "whom", "why", "will", "with", "you", "your", "yours", "yourself", "yourselves",
	} {
		m[w] = true
	}
	return m
}()

// isStopword reports whether the lower-cased token is a stop word (the map
// lookup with a converted []byte key does not allocate).
func isStopword(tok []byte) bool { return stopwords[string(tok)] }
