package io.github.odrust.agent.shuffle.rt;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The shuffling runtime of {@code odrust:detect-id} (docs/id-tests.md), on the boot class path:
 * the JDK methods the agent retransforms ({@code ShuffleTransformer}) hand their result to these
 * static methods, which return a seeded permutation of it when the call counts.
 *
 * <p>A call <em>counts</em> when its result has two elements or more (a JDK collection of fewer
 * when the call is made has one order only) and the first frame of its stack that is neither the JDK nor an assertion library belongs to
 * the module's own code (its class directories, or an {@code include} prefix), or any non-JDK
 * frame with {@code filter any}. Counted calls are
 * numbered 1, 2, 3, ... in the order they happen in this JVM; a counted call is shuffled when the
 * run has a seed and its number is in the {@code only} ranges (all, when there are none), or,
 * with {@code only-call N SITE}, when it is the N-th counted call of that site (its API and the
 * module's frame), whatever its number: each logged call says that {@code nth}. The
 * permutation of call k depends only on (seed, k), so shuffling fewer calls leaves the others'
 * numbers and orders unchanged; it permutes the elements in an order that does not depend on the
 * JVM ({@link #positions}), so a seed shuffles a call alike in every JVM. Under an even seed a
 * permutation that would keep the original order is rotated by one, so every shuffled call of two
 * or more elements changes the order; under
 * an odd seed each call's permutation is drawn from all of them, the original order included, so
 * two calls of two elements disagree half the time. With {@code consistent-call K} every call
 * gets the permutation call K gets (the same for every call of K's size): the failing order of
 * one call applied alike to all, as an implementation keeping one order per class would (under an
 * even seed, a call whose result would be its own JDK order is still rotated).
 *
 * <p>Compiled for Java 11 (StackWalker) and loaded by the boot loader; it must not use lambdas
 * (their bootstrap would run inside a retransformed JDK method) and guards itself against
 * re-entry per thread.
 */
public final class Shuffler {
    private Shuffler() {}

    private static final int JDK = 0;
    private static final int TRANSPARENT = 1;
    private static final int PROJECT = 2;
    private static final int OTHER = 3;
    /** odrust's own runner: its calls never count. */
    private static final int INTERNAL = 4;

    /** Assertion libraries: the first non-JDK frame is looked for above them. */
    private static final String[] TRANSPARENT_PREFIXES = {
        "org.assertj.",
        "org.hamcrest.",
        "com.google.common.truth.",
        "org.junit.Assert",
        "org.junit.jupiter.api.Assert",
        "junit.framework.Assert",
        "org.skyscreamer.jsonassert.",
        "org.junit.internal.",
        "org.junit.jupiter.api.AssertionUtils"
    };

    private static volatile boolean on;
    private static boolean seeded;
    private static long seed;
    private static long[] only = new long[0];
    private static String[] roots = new String[0];
    private static String[] includes = new String[0];
    private static boolean any;
    /** When above 0: every counted call gets the permutation this call gets. */
    private static long consistentCall;

    private static boolean trackAllocations;
    private static int logLimit = 64;
    private static OutputStream log;
    private static int logged;
    private static long counter;
    /**
     * How many counted calls each site ({@link #siteKey}) made so far in this run: a call's
     * {@code nth}, which names it alike in JVMs that number calls otherwise (a JDK cache a fresh
     * JVM fills during the test, where a shared JVM filled it before).
     */
    private static final Map<SiteKey, long[]> AT_SITE = new java.util.HashMap<>();
    /** {@code only-call}: shuffle only the call that is this site's {@link #onlyNth}-th; null: the ranges decide. */
    private static String onlySite;

    private static long onlyNth;
    private static final Object LOCK = new Object();
    /** Set while a hook runs: hooks called meanwhile on this thread pass results through unchanged. */
    static final ThreadLocal<boolean[]> BUSY = new ThreadLocal<boolean[]>() {
        @Override
        protected boolean[] initialValue() {
            return new boolean[1];
        }
    };

    private static StackWalker walker;
    private static final ClassValue<Integer> KIND = new ClassValue<Integer>() {
        @Override
        protected Integer computeValue(Class<?> c) {
            return kindOf(c);
        }
    };
    private static final List<Allocation> ALLOCATIONS = new ArrayList<>();

    private static final class Allocation {
        final WeakReference<Object> ref;
        final String type;
        final String at;

        Allocation(Object o, String type, String at) {
            this.ref = new WeakReference<>(o);
            this.type = type;
            this.at = at;
        }
    }

    /**
     * Turns the runtime on (called once, by the agent's premain, through reflection).
     *
     * @param seedOrNull the seed; {@code null}: count, never shuffle
     * @param onlyRanges inclusive [from, to] pairs, flattened; empty: all counted calls
     * @param onlyCall {@code "N SITE"}: instead of the ranges, only the N-th counted call of SITE
     *     ({@link #siteKey}); null: the ranges decide
     * @param logFile JSON lines: the counted calls within {@code only} (all when there are none; at most {@code limit}),
     *     each with its {@code index} and its {@code nth} at its site,
     *     then {@code {"count":N}} when the JVM exits
     */
    public static void configure(
            Long seedOrNull,
            long[] onlyRanges,
            String onlyCall,
            String[] rootPaths,
            String[] includePrefixes,
            boolean anyCaller,
            long consistentCallNumber,
            boolean allocations,
            String logFile,
            int limit)
            throws IOException {
        roots = rootPaths.clone();
        includes = includePrefixes.clone();
        walker = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
        synchronized (LOCK) {
            settle(seedOrNull, onlyRanges, onlyCall, anyCaller, consistentCallNumber, allocations, logFile, limit);
        }
        // Touch everything the hot path uses before it may run inside HashMap.
        BUSY.get();
        KIND.get(Shuffler.class);
        Keyed.warm();
        List<Object> warm = new ArrayList<>();
        warm.add("a");
        warm.add(Thread.State.NEW);
        warm.add(Shuffler.class);
        warm.add(1);
        warm.add(new Object());
        reorder(warm, positions(warm, 1, Keyed.Order.KEYS));
        reorder(warm, positions(warm, 1, Keyed.Order.NAMES));
        walker.walk(new FirstCounted(true));
        new ShuffledIterator(new ArrayList<>(), new ArrayList<>(), null).hasNext();
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        new Runnable() {
                            @Override
                            public void run() {
                                finish();
                            }
                        },
                        "odrust-shuffle-exit"));
        on = true;
    }

    /**
     * Starts one order in a shared JVM (docs/isolation.md): the order's own seed, ranges, log and
     * settings, the count from 0, as a fresh JVM's configure would; {@link #end} closes it. The
     * JDK classes stay retransformed between orders; the roots and includes stay as configured.
     */
    public static void begin(
            Long seedOrNull,
            long[] onlyRanges,
            String onlyCall,
            boolean anyCaller,
            long consistentCallNumber,
            boolean allocations,
            String logFile,
            int limit)
            throws IOException {
        synchronized (LOCK) {
            on = false;
            settle(seedOrNull, onlyRanges, onlyCall, anyCaller, consistentCallNumber, allocations, logFile, limit);
            on = true;
        }
    }

    /** One run's settings, its count and log from nothing (under {@link #LOCK}, with {@link #on} off). */
    private static void settle(
            Long seedOrNull,
            long[] onlyRanges,
            String onlyCall,
            boolean anyCaller,
            long consistentCallNumber,
            boolean allocations,
            String logFile,
            int limit)
            throws IOException {
        seeded = seedOrNull != null;
        seed = seedOrNull == null ? 0 : seedOrNull;
        only = onlyRanges.clone();
        onlySite = null;
        onlyNth = 0;
        if (onlyCall != null) {
            int space = onlyCall.indexOf(' ');
            onlyNth = Long.parseLong(onlyCall.substring(0, space));
            onlySite = onlyCall.substring(space + 1);
        }
        AT_SITE.clear();
        any = anyCaller;
        consistentCall = consistentCallNumber;
        trackAllocations = allocations;
        logLimit = limit;
        logged = 0;
        counter = 0;
        ALLOCATIONS.clear();
        if (log != null) {
            log.close();
        }
        log = logFile == null ? null : new FileOutputStream(logFile, false);
    }

    /** Ends the order {@link #begin} started: writes its count and closes its log; nothing counts until the next. */
    public static void end() {
        finish();
        synchronized (LOCK) {
            seeded = false;
            counter = 0;
            onlySite = null;
            AT_SITE.clear();
            ALLOCATIONS.clear();
        }
    }

    /** The number of counted calls so far (tests). */
    public static long count() {
        synchronized (LOCK) {
            return counter;
        }
    }

    static void finish() {
        on = false;
        synchronized (LOCK) {
            write("{\"count\":" + counter + "}");
            if (log != null) {
                try {
                    log.close();
                } catch (IOException e) {
                    // nothing left to tell
                }
                log = null;
            }
        }
    }

    // ---- the hooks the retransformed JDK methods call -------------------------------------------------

    /** {@code iterator()} of a HashMap view, PriorityQueue or ConcurrentHashMap view. */
    public static Iterator<?> iterator(Iterator<?> it, Object collection, Object source, String api) {
        if (!on || skip(collection, source)) {
            return it;
        }
        boolean[] busy = BUSY.get();
        if (busy[0]) {
            return it;
        }
        busy[0] = true;
        try {
            if (fewerThanTwo(collection)) {
                return it;
            }
            long k = decide(api, source);
            if (k <= 0) {
                return it;
            }
            List<Object> items = new ArrayList<>();
            while (it.hasNext()) {
                items.add(it.next());
            }
            // the permutation of the positions: remove() finds an element by where the JDK's own
            // iterator has it
            List<Object> positions = positions(items, k, Keyed.Order.of(api));
            List<Object> shuffled = new ArrayList<>(items.size());
            for (Object p : positions) {
                shuffled.add(items.get((Integer) p));
            }
            return new ShuffledIterator(
                    shuffled, positions, collection instanceof Collection ? (Collection<?>) collection : null);
        } finally {
            busy[0] = false;
        }
    }

    /** {@code spliterator()} of a HashSet, a HashMap view or a PriorityQueue. */
    public static Spliterator<?> spliterator(Spliterator<?> s, Object collection, Object source, String api) {
        if (!on || skip(source, source)) {
            return s;
        }
        boolean[] busy = BUSY.get();
        if (busy[0]) {
            return s;
        }
        busy[0] = true;
        try {
            // the collection's size, not the spliterator's: asking a late-binding spliterator
            // binds it to the collection now, not at its first traversal as the JDK does
            if (fewerThanTwo(collection)) {
                return s;
            }
            long k = decide(api, source);
            if (k <= 0) {
                return s;
            }
            final List<Object> items = new ArrayList<>();
            int characteristics = s.characteristics();
            s.forEachRemaining(new Consumer<Object>() {
                @Override
                public void accept(Object o) {
                    items.add(o);
                }
            });
            reorder(items, positions(items, k, Keyed.Order.of(api)));
            return Spliterators.spliterator(
                    items.toArray(),
                    characteristics & (Spliterator.DISTINCT | Spliterator.NONNULL | Spliterator.IMMUTABLE));
        } finally {
            busy[0] = false;
        }
    }

    /**
     * An array result: {@code toArray} of a collection (its first {@code size()} elements),
     * {@code Class.getDeclaredFields} and the like, {@code File.list} (the whole array; a fresh one
     * on every call, so it is permuted in place).
     */
    public static Object[] array(Object[] a, Object collection, Object source, String api) {
        if (!on || a == null || a.length < 2 || skip(collection, source)) {
            return a;
        }
        boolean[] busy = BUSY.get();
        if (busy[0]) {
            return a;
        }
        busy[0] = true;
        try {
            // toArray(T[]) into a longer array: the collection's own size decides
            if (fewerThanTwo(collection)) {
                return a;
            }
            long k = decide(api, source);
            if (k <= 0) {
                return a;
            }
            int n = collection instanceof Collection
                    ? Math.min(a.length, ((Collection<?>) collection).size())
                    : a.length;
            List<Object> items = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                items.add(a[i]);
            }
            // reflection's members and File.list: no collection, ordered by their texts
            reorder(items, positions(items, k, collection == null ? Keyed.Order.NAMES : Keyed.Order.of(api)));
            for (int i = 0; i < n; i++) {
                a[i] = items.get(i);
            }
            return a;
        } finally {
            busy[0] = false;
        }
    }

    /**
     * {@code forEach} of a HashMap ({@code BiConsumer}) or of a HashMap view or PriorityQueue
     * ({@code Consumer}): when the call counts and is shuffled, runs the action over a permutation
     * and returns true (the original method then returns at once); false: the original runs.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static boolean forEach(Object target, Object action, Object source, String api) {
        if (!on || action == null || skip(target, source)) {
            return false;
        }
        boolean[] busy = BUSY.get();
        if (busy[0]) {
            return false;
        }
        List<Object> items;
        long k;
        busy[0] = true;
        try {
            if (fewerThanTwo(target)) {
                return false;
            }
            k = decide(api, source);
            if (k <= 0) {
                return false;
            }
            Iterator<?> it = target instanceof Map
                    ? ((Map<?, ?>) target).entrySet().iterator()
                    : ((Collection<?>) target).iterator();
            items = new ArrayList<>();
            while (it.hasNext()) {
                items.add(it.next());
            }
            reorder(items, positions(items, k, Keyed.Order.of(api)));
        } finally {
            busy[0] = false;
        }
        if (target instanceof Map) {
            BiConsumer b = (BiConsumer) action;
            for (Object o : items) {
                Map.Entry e = (Map.Entry) o;
                b.accept(e.getKey(), e.getValue());
            }
        } else {
            Consumer c = (Consumer) action;
            for (Object o : items) {
                c.accept(o);
            }
        }
        return true;
    }

    /** The end of {@code HashMap.<init>}: remembers where a plain HashMap (or a HashSet's) was made. */
    public static void allocated(Object map) {
        if (!on || !trackAllocations || map == null || map.getClass() != java.util.HashMap.class) {
            return;
        }
        boolean[] busy = BUSY.get();
        if (busy[0]) {
            return;
        }
        busy[0] = true;
        try {
            Site site = walker.walk(new FirstCounted(false));
            if (site == null || site.frame == null) {
                return;
            }
            String type = site.madeByHashSet ? "HashSet" : "HashMap";
            synchronized (LOCK) {
                if (ALLOCATIONS.size() >= 200_000) {
                    ALLOCATIONS.removeIf(new java.util.function.Predicate<Allocation>() {
                        @Override
                        public boolean test(Allocation a) {
                            return a.ref.get() == null;
                        }
                    });
                    if (ALLOCATIONS.size() >= 200_000) {
                        return;
                    }
                }
                ALLOCATIONS.add(new Allocation(map, type, frameJson(site.at())));
            }
        } finally {
            busy[0] = false;
        }
    }

    // ---- deciding ----------------------------------------------------------------------------------

    /**
     * Whether {@code collection} (a Collection or Map of the JDK's own) has fewer than two elements
     * when the call is made: then the result has one order only, and the call neither counts nor is
     * shuffled (as an array of fewer than two). A subclass outside the JDK is not asked (its
     * {@code size()} is the module's code: it may throw, or a mock may record the call); its calls
     * count as before.
     */
    private static boolean fewerThanTwo(Object collection) {
        if (collection == null || collection.getClass().getClassLoader() != null) {
            return false;
        }
        if (collection instanceof Collection) {
            return ((Collection<?>) collection).size() < 2;
        }
        if (collection instanceof Map) {
            return ((Map<?, ?>) collection).size() < 2;
        }
        return false;
    }

    /** LinkedHashMap/LinkedHashSet keep their insertion order: never shuffled. */
    private static boolean skip(Object collection, Object source) {
        return collection instanceof LinkedHashMap
                || collection instanceof LinkedHashSet
                || source instanceof LinkedHashMap
                || source instanceof LinkedHashSet;
    }

    /**
     * Counts the call when it counts: returns its number when it is to be shuffled, its negated
     * number when it only counts, 0 when it does not count.
     */
    private static long decide(String api, Object source) {
        Site site = walker.walk(new FirstCounted(true));
        if (site == null) {
            return 0;
        }
        StackWalker.StackFrame at = site.at();
        SiteKey key = new SiteKey(api, at.getClassName(), at.getMethodName(), at.getLineNumber());
        long k;
        long nth;
        synchronized (LOCK) {
            k = ++counter;
            long[] n = AT_SITE.get(key);
            if (n == null) {
                n = new long[1];
                AT_SITE.put(key, n);
            }
            nth = ++n[0];
        }
        // the site's text only for the one call whose number matches: every call counts, few match
        boolean inRange = onlySite != null ? nth == onlyNth && siteKey(api, at).equals(onlySite) : inOnly(k);
        if (inRange) {
            describe(k, nth, api, site, source);
        }
        return seeded && inRange ? k : -k;
    }

    /**
     * A counted call's site, as {@code only-call} names it: {@code HashSet.iterator at
     * com.a.Foo.names:12} (the API and the module's frame; {@code null} for a frame without a line).
     */
    static String siteKey(String api, StackWalker.StackFrame at) {
        int line = at.getLineNumber();
        return new StringBuilder(128)
                .append(api)
                .append(" at ")
                .append(at.getClassName())
                .append('.')
                .append(at.getMethodName())
                .append(':')
                .append(line > 0 ? String.valueOf(line) : "null")
                .toString();
    }

    /**
     * A site as {@link #AT_SITE} counts it: the fields of {@link #siteKey} without building its
     * text on every counted call.
     */
    private static final class SiteKey {
        private final String api;
        private final String className;
        private final String method;
        private final int line;
        private final int hash;

        SiteKey(String api, String className, String method, int line) {
            this.api = api;
            this.className = className;
            this.method = method;
            this.line = line > 0 ? line : -1;
            this.hash = ((api.hashCode() * 31 + className.hashCode()) * 31 + method.hashCode()) * 31 + this.line;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof SiteKey)) {
                return false;
            }
            SiteKey other = (SiteKey) o;
            return hash == other.hash
                    && line == other.line
                    && api.equals(other.api)
                    && className.equals(other.className)
                    && method.equals(other.method);
        }
    }

    private static boolean inOnly(long k) {
        if (only.length == 0) {
            return true;
        }
        for (int i = 0; i + 1 < only.length; i += 2) {
            if (k >= only[i] && k <= only[i + 1]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Where a counted call comes from: the frame that decided it counts (the first above the JDK
     * and assertion libraries) and the first frame of the module's own code (the same frame,
     * unless {@code filter any} counted a library's call; null when no module code is on the stack).
     */
    private static final class Site {
        StackWalker.StackFrame frame;
        StackWalker.StackFrame project;
        boolean madeByHashSet;
        /** An assertion library made the call (AssertJ's containsExactly iterating the set). */
        boolean assertion;

        StackWalker.StackFrame at() {
            return project != null ? project : frame;
        }
    }

    /** The first frame above the JDK and assertion libraries, when it counts. */
    private static final class FirstCounted implements Function<Stream<StackWalker.StackFrame>, Site> {
        /** False for an allocation's site, where order-free JDK methods do not matter. */
        private final boolean counting;

        FirstCounted(boolean counting) {
            this.counting = counting;
        }

        @Override
        public Site apply(Stream<StackWalker.StackFrame> frames) {
            Site site = new Site();
            Iterator<StackWalker.StackFrame> it = frames.iterator();
            while (it.hasNext()) {
                StackWalker.StackFrame f = it.next();
                Class<?> c = f.getDeclaringClass();
                int kind = KIND.get(c);
                if (counting
                        && kind == JDK
                        && site.frame == null
                        && (orderFree(c, f.getMethodName()) || machinery(c, f.getMethodName()))) {
                    return null;
                }
                if (kind == INTERNAL && site.frame == null) {
                    return null;
                }
                if (kind == JDK || kind == INTERNAL) {
                    if (site.frame == null
                            && c == java.util.HashSet.class
                            && f.getMethodName().equals("<init>")) {
                        site.madeByHashSet = true;
                    }
                    continue;
                }
                if (kind == TRANSPARENT) {
                    if (site.frame == null) {
                        site.assertion = true;
                    }
                    continue;
                }
                if (site.frame == null) {
                    if (kind != PROJECT && !any) {
                        return null;
                    }
                    site.frame = f;
                }
                if (kind == PROJECT) {
                    site.project = f;
                    return site;
                }
            }
            return site.frame == null ? null : site;
        }
    }

    /**
     * The JDK's own machinery, whose iterations no test observes as an order and which runs once
     * per JVM or per class loader kind: class loaders and the module system finding a class or a
     * resource, a JDK class's static initializer, method handles and reflection's internals. A
     * call made inside them does not count, so a run's call numbers do not depend on what the JVM
     * did before (a shared JVM has initialized them already; its class loaders are others).
     */
    private static boolean machinery(Class<?> c, String method) {
        if (method.equals("<clinit>") || ClassLoader.class.isAssignableFrom(c)) {
            return true;
        }
        String n = c.getName();
        return n.startsWith("jdk.internal.")
                || n.startsWith("java.lang.invoke.")
                || n.startsWith("sun.")
                || n.equals("java.lang.Module")
                || n.equals("java.lang.ModuleLayer");
    }

    /**
     * JDK methods whose result cannot depend on the order they iterate in (equality and hash codes
     * of collections, copying into a hash collection): a call made inside them does not count,
     * which also spares a stack walk per element-wise {@code equals} of nested collections.
     */
    private static boolean orderFree(Class<?> c, String method) {
        if (c == java.util.AbstractMap.class || c == java.util.AbstractSet.class) {
            return method.equals("equals") || method.equals("hashCode") || method.equals("removeAll");
        }
        if (c == java.util.AbstractCollection.class) {
            return method.equals("containsAll");
        }
        if (c == java.util.HashMap.class) {
            return method.equals("putMapEntries");
        }
        if (c == java.util.HashSet.class) {
            return method.equals("<init>");
        }
        return false;
    }

    private static int kindOf(Class<?> c) {
        ClassLoader loader = c.getClassLoader();
        String name = c.getName();
        if (name.startsWith("io.github.odrust.agent.") && loader != null) {
            return INTERNAL;
        }
        if (loader == null
                || loader == ClassLoader.getPlatformClassLoader()
                || name.startsWith("java.")
                || name.startsWith("jdk.")
                || name.startsWith("sun.")
                || name.startsWith("com.sun.")) {
            return JDK;
        }
        for (String p : TRANSPARENT_PREFIXES) {
            if (name.startsWith(p)) {
                return TRANSPARENT;
            }
        }
        for (String p : includes) {
            if (name.startsWith(p)) {
                return PROJECT;
            }
        }
        try {
            CodeSource cs = c.getProtectionDomain().getCodeSource();
            URL url = cs == null ? null : cs.getLocation();
            if (url != null && url.getProtocol().equals("file")) {
                String path = new java.io.File(url.toURI()).getAbsolutePath();
                for (String r : roots) {
                    if (path.equals(r)) {
                        return PROJECT;
                    }
                }
            }
        } catch (Exception | LinkageError e) {
            // an unknown location is not the module's
        }
        return OTHER;
    }

    // ---- permuting ---------------------------------------------------------------------------------

    /**
     * A permutation that depends only on (seed, k) (k: the consistent call when there is one);
     * never the identity for two or more elements under an even seed (see the class's
     * documentation).
     */
    static void permute(List<Object> items, long k) {
        int n = items.size();
        if (n < 2) {
            return;
        }
        long call = consistentCall > 0 ? consistentCall : k;
        boolean anyPermutation = (seed & 1) != 0;
        long state = mix64(seed ^ mix64(call * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L));
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            state += 0x9E3779B97F4A7C15L;
            int j = (int) Long.remainderUnsigned(mix64(state), i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        boolean identity = true;
        for (int i = 0; i < n && identity; i++) {
            identity = p[i] == i;
        }
        Object[] copy = items.toArray();
        boolean rotate = identity && !anyPermutation;
        for (int i = 0; i < n; i++) {
            items.set(i, copy[rotate ? (i + 1) % n : p[i]]);
        }
    }

    /**
     * The positions (in the JDK's own order) of {@code items} in the order a seed gives call
     * {@code k}: its permutation ({@link #permute}) of the items in an order that does not depend on
     * the JVM, so that a seed shuffles a call alike in a fresh JVM, a shared one and on another
     * machine. The JDK's own order does depend on it: a HashSet of objects without their own
     * {@code hashCode} iterates by identity hash codes, which differ from one JVM to the next, and
     * HotSpot orders reflection's members by where their names sit in memory, which depends on
     * every class loaded before. The items are ordered by {@link Keyed} (see {@link Keyed.Order});
     * items it cannot tell apart keep the JDK's order between them. Under an even seed a result
     * equal to the JDK's order is rotated by one: every shuffled call still changes it (so there,
     * and with {@code consistent-call}, a result can depend on the JDK's order).
     */
    static List<Object> positions(List<Object> items, long k, Keyed.Order order) {
        int n = items.size();
        Keyed[] keyed = new Keyed[n];
        for (int i = 0; i < n; i++) {
            keyed[i] = order == Keyed.Order.NAMES
                    ? Keyed.named(items.get(i), i)
                    : Keyed.of(items.get(i), i, order == Keyed.Order.KEYS);
        }
        Keyed.sort(keyed);
        List<Object> positions = new ArrayList<>(n);
        for (Keyed key : keyed) {
            positions.add(key.position);
        }
        permute(positions, k);
        if ((seed & 1) == 0 && n >= 2) {
            boolean same = true;
            for (int i = 0; i < n && same; i++) {
                same = (Integer) positions.get(i) == i;
            }
            if (same) {
                for (int i = 0; i < n; i++) {
                    positions.set(i, (i + 1) % n);
                }
            }
        }
        return positions;
    }

    /** Puts {@code items} in the order of {@code positions} (each an index into them as they are). */
    static void reorder(List<Object> items, List<Object> positions) {
        Object[] own = items.toArray();
        for (int i = 0; i < own.length; i++) {
            items.set(i, own[(Integer) positions.get(i)]);
        }
    }

    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    // ---- the log -------------------------------------------------------------------------------------

    private static void describe(long k, long nth, String api, Site site, Object source) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"index\":").append(k).append(",\"nth\":").append(nth).append(",\"api\":");
        quote(b, api);
        b.append(",\"at\":").append(frameJson(site.at()));
        if (site.frame != site.at()) {
            b.append(",\"via\":").append(frameJson(site.frame));
        }
        if (site.assertion) {
            b.append(",\"assertion\":true");
        }
        if (source != null) {
            String alloc = null;
            synchronized (LOCK) {
                for (int i = ALLOCATIONS.size() - 1; i >= 0 && alloc == null; i--) {
                    Allocation a = ALLOCATIONS.get(i);
                    if (a.ref.get() == source) {
                        alloc = "{\"type\":\"" + a.type + "\",\"at\":" + a.at + "}";
                    }
                }
            }
            if (alloc != null) {
                b.append(",\"alloc\":").append(alloc);
            }
        }
        b.append('}');
        synchronized (LOCK) {
            if (logged < logLimit) {
                logged++;
                write(b.toString());
            }
        }
    }

    private static String frameJson(StackWalker.StackFrame f) {
        StringBuilder b = new StringBuilder(128);
        b.append("{\"class\":");
        quote(b, f.getClassName());
        b.append(",\"method\":");
        quote(b, f.getMethodName());
        b.append(",\"file\":");
        quote(b, f.getFileName());
        b.append(",\"line\":");
        int line = f.getLineNumber();
        b.append(line > 0 ? String.valueOf(line) : "null");
        return b.append('}').toString();
    }

    private static void quote(StringBuilder b, String s) {
        if (s == null) {
            b.append("null");
            return;
        }
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }

    /** Called with LOCK held. */
    private static void write(String line) {
        if (log == null) {
            return;
        }
        try {
            log.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            log.flush();
        } catch (IOException e) {
            log = null;
        }
    }
}
