package io.github.odrust.agent.shuffle.rt;

import java.util.ArrayList;
import java.util.Collection;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * An iterator over a permutation of what the JDK's own iterator returned. {@code remove()} removes
 * the last element returned from the collection it came from the way the JDK's iterator would: in
 * a set (its elements unique) by the set's own {@code remove}; otherwise through a JDK iterator of
 * the collection (this thread's hooks pass it through unshuffled, so this never calls itself, as
 * {@code Collection.remove(Object)} of a values view would), at the element's position there, so
 * of equal values or one value held twice the very entry returned goes (a walk per removal). A
 * collection that reorders as it removes (a priority queue) or that changed meanwhile loses the
 * first element that is the one returned; none left: {@link ConcurrentModificationException}, as
 * a JDK iterator would throw (not for a {@code java.util.concurrent} view, whose iterators never
 * do).
 */
final class ShuffledIterator implements Iterator<Object> {
    private final List<Object> items;
    /** Where {@code items[i]} was in the JDK's own order. */
    private final List<Object> positions;

    private final Collection<?> from;
    /** Positions (in the JDK's order) removed so far, ascending. */
    private final List<Integer> removed = new ArrayList<>();

    private int next;
    private boolean removable;

    ShuffledIterator(List<Object> items, List<Object> positions, Collection<?> from) {
        this.items = items;
        this.positions = positions;
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
    public void forEachRemaining(Consumer<? super Object> action) {
        if (action == null) {
            throw new NullPointerException();
        }
        while (next < items.size()) {
            removable = true;
            action.accept(items.get(next++));
        }
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
        Object target = items.get(next - 1);
        int position = (Integer) positions.get(next - 1);
        boolean[] busy = Shuffler.BUSY.get();
        boolean was = busy[0];
        busy[0] = true;
        try {
            boolean removed;
            if (from instanceof Set) {
                // a set's elements are unique and its remove is a lookup, not a walk: one step,
                // so removing many (removeIf) stays linear
                removed = from.remove(target);
            } else {
                removed = removeAt(position, target) || removeIdentical(target);
            }
            // a java.util.concurrent view whose element another thread removed meanwhile: done,
            // as its own iterator would be; elsewhere the collection changed under the iterator
            if (!removed && !from.getClass().getName().startsWith("java.util.concurrent.")) {
                throw new ConcurrentModificationException();
            }
        } finally {
            busy[0] = was;
        }
        int at = 0;
        while (at < removed.size() && removed.get(at) < position) {
            at++;
        }
        removed.add(at, position);
    }

    /**
     * Whether {@code x} is the element {@code target}: the same object, or in a set (its elements
     * are unique) an equal one: a {@code ConcurrentHashMap}'s entry set makes a new entry object
     * on every {@code next()}.
     */
    private boolean same(Object x, Object target) {
        return x == target || (from instanceof Set && Objects.equals(x, target));
    }

    /** Removes the element at {@code position} of the JDK's order when it is {@code target}. */
    private boolean removeAt(int position, Object target) {
        int index = position;
        for (Integer r : removed) {
            if (r < position) {
                index--;
            }
        }
        Iterator<?> it = from.iterator();
        for (int i = 0; i < index; i++) {
            if (!it.hasNext()) {
                return false;
            }
            it.next();
        }
        if (!it.hasNext() || !same(it.next(), target)) {
            return false;
        }
        it.remove();
        return true;
    }

    /** Removes the first element that is {@code target} (see {@link #same}). */
    private boolean removeIdentical(Object target) {
        for (Iterator<?> it = from.iterator(); it.hasNext(); ) {
            if (same(it.next(), target)) {
                it.remove();
                return true;
            }
        }
        return false;
    }
}
