package io.github.odrust.agent.samples;

import org.junit.Test;
import org.junit.experimental.categories.Category;

/** JUnit 4 tests in categories, for Surefire's groups/excludedGroups. */
@Category(SampleJ4Categorized.Unit.class)
public class SampleJ4Categorized {
    public interface Unit {}

    public interface Slow {}

    /** A kind of slow: a group of {@link Slow} takes it too. */
    public interface VerySlow extends Slow {}

    @Test
    public void plain() {}

    @Test
    @Category(Slow.class)
    public void slow() {}

    @Test
    @Category(VerySlow.class)
    public void verySlow() {}
}
