package report

// FactsTable sets facts (name, value) of each bundle side by side: a row per name in
// first-seen order, a column per bundle, empty where a bundle has no such fact. facts[i]
// are bundle i's, labels[i] its column's heading.
func FactsTable(labels []string, facts [][][2]string) Table {
	t := Table{Header: append([]string{""}, labels...), Text: len(labels) + 1}
	var names []string
	values := map[string][]string{}
	for i, fs := range facts {
		for _, f := range fs {
			if _, ok := values[f[0]]; !ok {
				names = append(names, f[0])
				values[f[0]] = make([]string, len(labels))
			}
			values[f[0]][i] = f[1]
		}
	}
	for _, n := range names {
		t.Rows = append(t.Rows, append([]string{n}, values[n]...))
	}
	return t
}
