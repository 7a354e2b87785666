package com.example;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.Test;

public class RosterTest {
    /** ID: joins the initials in the order the HashSet happens to iterate them (today, as added). */
    @Test
    public void initialsInOrder() {
        assertEquals("a,b,c,d", String.join(",", Roster.initials(List.of("ann", "bob", "cid", "dee"))));
    }

    /** ID: prints the HashMap that groupingBy made. */
    @Test
    public void groupsInOrder() {
        assertEquals("{3=[ann, bob], 4=[carl], 5=[diana]}", Roster.byLength(List.of("ann", "bob", "carl", "diana")).toString());
    }

    /**
     * ID: the tags' set is collected from another set. A LinkedHashSet for the collector alone
     * takes that set's order, which a seed still shuffles; the repair follows the order there.
     */
    @Test
    public void upperTagsInOrder() {
        assertEquals("A,B,C,D", String.join(",", Tags.upper(List.of("a", "b", "c", "d", "a"))));
    }

    /** Not ID: compares sets, whatever their order. */
    @Test
    public void initialsAsASet() {
        assertEquals(Set.of("a", "b"), Roster.initials(List.of("al", "bo")));
    }
}
