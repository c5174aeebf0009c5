// Package partitions holds the input partitions of each requirement of the spec: for every
// input a clause reads, the classes of values it tells apart (absent, null, wrong type,
// empty, boundary, maximal, first / middle / last, the combinations the clause names), each
// mapped to the checks (features and fixtures) that exercise it. A Stryker survivor is a
// symptom of a missing partition; this list is where the cure is written down.
//
// Package conformance's TestEveryPartitionHasACheck checks the list against the runner's
// checks.
package partitions

import (
	_ "embed"
	"fmt"

	"gopkg.in/yaml.v3"
)

//go:embed partitions.yaml
var data []byte

// Partition is one class of values of one input of a requirement, and the checks that
// exercise it, named as the runner reports them (part/name, e.g.
// "fixtures/uri-decode/padding").
type Partition struct {
	Requirement string
	Input       string
	Name        string
	Checks      []string
}

// All returns every partition of partitions.yaml, in file order.
func All() ([]Partition, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("partitions.yaml: %w", err)
	}
	root := doc.Content[0]
	reqs := mapping(root, "requirements")
	if reqs == nil {
		return nil, fmt.Errorf("partitions.yaml: no requirements mapping")
	}
	var out []Partition
	for i := 0; i+1 < len(reqs.Content); i += 2 {
		id, inputs := reqs.Content[i].Value, reqs.Content[i+1]
		if inputs.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("partitions.yaml:%d: %s: want a mapping of inputs", inputs.Line, id)
		}
		for j := 0; j+1 < len(inputs.Content); j += 2 {
			input, parts := inputs.Content[j].Value, inputs.Content[j+1]
			if parts.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("partitions.yaml:%d: %s %s: want a mapping of partitions", parts.Line, id, input)
			}
			for k := 0; k+1 < len(parts.Content); k += 2 {
				name, checks := parts.Content[k].Value, parts.Content[k+1]
				var list []string
				if err := checks.Decode(&list); err != nil {
					return nil, fmt.Errorf("partitions.yaml:%d: %s %s %s: want a list of checks", checks.Line, id, input, name)
				}
				out = append(out, Partition{Requirement: id, Input: input, Name: name, Checks: list})
			}
		}
	}
	return out, nil
}

func mapping(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
