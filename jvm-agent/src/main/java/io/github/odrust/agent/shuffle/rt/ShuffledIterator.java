package io.github.odrust.agent.shuffle.rt;

import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * An iterator over a permutation of what the original iterator returned; {@code remove()} removes
 * the last element returned from the collection it came from.
 */
final class ShuffledIterator implements Iterator<Object> {
    private final List<Object> items;
    private final Collection<?> from;
    private int next;
    private boolean removable;

    ShuffledIterator(List<Object> items, Collection<?> from) {
        this.items = items;
        this.from = from;
    }

    @Override
    public boolean hasNext() {
        return next < items.size();
    }

    @Override
    public Object next() {
        if (next >= items.size()) {
            throw new NoSuchElementException();
        }
        removable = true;
        return items.get(next++);
    }

    @Override
    public void remove() {
        if (!removable) {
            throw new IllegalStateException();
        }
        if (from == null) {
            throw new UnsupportedOperationException("remove");
        }
        removable = false;
        from.remove(items.get(next - 1));
    }
}
