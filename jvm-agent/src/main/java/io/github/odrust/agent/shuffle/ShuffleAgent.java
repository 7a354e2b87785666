package io.github.odrust.agent.shuffle;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.CRC32;

/**
 * {@code mode shuffle} of the jvm-agent ({@code odrust:detect-id}, docs/id-tests.md): puts the
 * shuffling runtime ({@code shuffle.rt}) on the boot class path, configures it, and retransforms
 * the JDK classes whose results it permutes. Needs Java 11 or later (the runtime walks stacks with
 * StackWalker); never stops the JVM: a problem is printed on stderr and nothing is shuffled.
 */
public final class ShuffleAgent {
    private ShuffleAgent() {}

    /** What the options file asked for. */
    public static final class Settings {
        public final List<Path> roots = new ArrayList<>();
        public final List<String> includes = new ArrayList<>();
        public Long seed;
        public final List<Long> only = new ArrayList<>();
        /** {@code only-call}: the N-th call of one site instead of {@link #only}; null: none. */
        public String onlyCall;

        public boolean anyCaller;
        public long consistentCall;
        public boolean trackAllocations;
        public Path log;
        public int logLimit = 64;
        /** Where the runtime's jar is kept for the next JVMs; null: a temporary jar for this one. */
        public Path runtimeCache;
    }

    private static final String RT_DIR = "io/github/odrust/agent/shuffle/rt/";
    private static final String TRANSFORMER = "io/github/odrust/agent/shuffle/ShuffleTransformer";
    private static final String ASM_DIR = "io/github/odrust/agent/shaded/asm/";

    public static void activate(Settings s, Instrumentation inst) {
        try {
            String version = System.getProperty("java.specification.version");
            if (version.startsWith("1.") || Integer.parseInt(version) < 11) {
                throw new IllegalStateException("shuffling needs Java 11 or later, this JVM is Java " + version);
            }
            if (!inst.isRetransformClassesSupported()) {
                throw new IllegalStateException("this JVM cannot retransform classes");
            }
            RuntimeJar runtime = runtimeJar(s.runtimeCache);
            inst.appendToBootstrapClassLoaderSearch(new JarFile(runtime.jar));
            Class<?> rt = Class.forName(ShuffleTransformer.RT.replace('/', '.'), true, null);
            String[] roots = new String[s.roots.size()];
            for (int i = 0; i < roots.length; i++) {
                roots[i] = s.roots.get(i).toAbsolutePath().toString();
            }
            long[] only = new long[s.only.size()];
            for (int i = 0; i < only.length; i++) {
                only[i] = s.only.get(i);
            }
            Method configure = rt.getMethod(
                    "configure",
                    Long.class,
                    long[].class,
                    String.class,
                    String[].class,
                    String[].class,
                    boolean.class,
                    long.class,
                    boolean.class,
                    String.class,
                    int.class);
            configure.invoke(
                    null,
                    s.seed,
                    only,
                    s.onlyCall,
                    roots,
                    s.includes.toArray(new String[0]),
                    s.anyCaller,
                    s.consistentCall,
                    s.trackAllocations,
                    s.log == null ? null : s.log.toString(),
                    s.logLimit);
            readRuntime(inst, rt);
            ShuffleTransformer transformer = new ShuffleTransformer(
                    runtime.kept && runtime.transformerKey != 0
                            ? ClassCache.open(s.runtimeCache, runtime.transformerKey)
                            : ClassCache.NONE);
            inst.addTransformer(transformer, true);
            List<Class<?>> targets = new ArrayList<>();
            for (String name : ShuffleTransformer.HOOKS.keySet()) {
                Class<?> c = Class.forName(name.replace('/', '.'), false, null);
                if (inst.isModifiableClass(c)) {
                    targets.add(c);
                } else {
                    transformer.failures.add(name + ": not modifiable");
                }
            }
            try {
                inst.retransformClasses(targets.toArray(new Class<?>[0]));
            } catch (Throwable t) {
                if (transformer.cache.hits()) {
                    transformer.cache.discard(); // the next JVM rewrites them, if the file was the cause
                }
                throw t;
            }
            inst.removeTransformer(transformer);
            // each test's event says how many calls it made (the planner's estimate of its search)
            io.github.odrust.agent.runner.EventWriter.countCallsWith(rt.getMethod("count"));
            if (transformer.failures.isEmpty()) {
                try {
                    transformer.cache.save();
                } catch (IOException e) {
                    System.err.println("odrust-agent: cannot keep the rewritten JDK classes in " + s.runtimeCache + " ("
                            + e + "); the next JVMs rewrite them again");
                }
            }
            for (String f : transformer.failures) {
                System.err.println("odrust-agent: not shuffled: " + f);
            }
        } catch (Throwable t) {
            System.err.println("odrust-agent: shuffling failed to start (" + t + "); nothing is shuffled in this run");
        }
    }

    /**
     * In a shared JVM started with the shuffle agent: starts one order with the shuffle options
     * of {@code optionsFile} (its seed, ranges, log; docs/isolation.md). Null when started, else
     * why not (the order then runs without shuffling, and its log has no count).
     */
    public static String beginOrder(String optionsFile) {
        try {
            io.github.odrust.agent.format.AgentOptions o = io.github.odrust.agent.format.AgentOptions.read(optionsFile);
            if (!"shuffle".equals(o.mode)) {
                return optionsFile + " is not a shuffle options file (mode " + o.mode + ")";
            }
            long[] only = new long[o.only.size()];
            for (int i = 0; i < only.length; i++) {
                only[i] = o.only.get(i);
            }
            Class<?> rt = Class.forName(ShuffleTransformer.RT.replace('/', '.'), true, null);
            rt.getMethod(
                            "begin",
                            Long.class,
                            long[].class,
                            String.class,
                            boolean.class,
                            long.class,
                            boolean.class,
                            String.class,
                            int.class)
                    .invoke(
                            null,
                            o.seed,
                            only,
                            o.onlyCall,
                            o.anyCaller,
                            o.consistentCall,
                            o.trackAllocations,
                            o.log == null ? null : o.log.toString(),
                            o.logLimit);
            return null;
        } catch (Throwable t) {
            return "shuffling could not start for this order (" + t + ")";
        }
    }

    /** Ends the order {@link #beginOrder} started: its count written, its log closed. */
    public static void endOrder() {
        try {
            Class<?> rt = Class.forName(ShuffleTransformer.RT.replace('/', '.'), true, null);
            rt.getMethod("end").invoke(null);
        } catch (Throwable t) {
            System.err.println("odrust-agent: shuffling could not end the order (" + t + ")");
        }
    }

    /** java.base reads the boot loader's unnamed module, where the runtime lives. */
    private static void readRuntime(Instrumentation inst, Class<?> rt) throws ReflectiveOperationException {
        Method getModule = Class.class.getMethod("getModule");
        Object base = getModule.invoke(Object.class);
        Object unnamed = getModule.invoke(rt);
        Class<?> moduleClass = Class.forName("java.lang.Module");
        Method redefine = Instrumentation.class.getMethod(
                "redefineModule", moduleClass, Set.class, Map.class, Map.class, Set.class, Map.class);
        redefine.invoke(
                inst,
                base,
                Collections.singleton(unnamed),
                Collections.emptyMap(),
                Collections.emptyMap(),
                Collections.emptySet(),
                Collections.emptyMap());
    }

    /** The runtime's jar, whether it is the one kept in the cache, and the transformer's version. */
    private static final class RuntimeJar {
        final File jar;
        final boolean kept;
        /**
         * A checksum of the transformer's classes, ASM's and the runtime's in the agent's jar (0 when
         * the agent runs from a class directory): the version of what {@link ClassCache} keeps.
         */
        final long transformerKey;

        RuntimeJar(File jar, boolean kept, long transformerKey) {
            this.jar = jar;
            this.kept = kept;
            this.transformerKey = transformerKey;
        }
    }

    /**
     * A jar with the runtime's classes, copied from the agent's own jar or class directory. With a
     * {@code cache} directory, the jar an earlier JVM left there for the same classes (named by
     * their checksums), else one written there for the next JVMs: writing it costs a JVM about as
     * much as the rest of the agent's start. Without one, or when it cannot be written there (said
     * on stderr), a temporary file deleted on exit.
     */
    private static RuntimeJar runtimeJar(Path cache) throws IOException, URISyntaxException {
        Path self = Paths.get(ShuffleAgent.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        // entry name -> its CRC-32 (a jar's central directory has them; a directory's are computed)
        Map<String, Long> names = new TreeMap<>();
        Map<String, Long> transformer = new TreeMap<>();
        boolean asm = false; // the rewritten classes depend on ASM's version too: kept only with it
        if (Files.isDirectory(self)) {
            File[] files = self.resolve(RT_DIR).toFile().listFiles();
            if (files != null) {
                for (File f : files) {
                    if (f.getName().endsWith(".class")) {
                        CRC32 crc = new CRC32();
                        crc.update(Files.readAllBytes(f.toPath()));
                        names.put(RT_DIR + f.getName(), crc.getValue());
                    }
                }
            }
        } else {
            try (JarFile jar = new JarFile(self.toFile())) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    JarEntry entry = e.nextElement();
                    String n = entry.getName();
                    if (n.startsWith(RT_DIR) && n.endsWith(".class")) {
                        names.put(n, entry.getCrc());
                    }
                    if (n.startsWith(TRANSFORMER) || n.startsWith(ASM_DIR)) {
                        transformer.put(n, entry.getCrc());
                        asm |= n.startsWith(ASM_DIR);
                    }
                }
            }
        }
        long transformerKey = 0;
        if (asm) {
            transformer.putAll(names);
            transformerKey = checksum(transformer);
        }
        if (names.isEmpty()) {
            throw new IOException("the shuffling runtime is missing from " + self);
        }
        if (cache != null) {
            try {
                return new RuntimeJar(cached(cache, names, self), true, transformerKey);
            } catch (IOException e) {
                System.err.println("odrust-agent: cannot keep the shuffling runtime's jar in " + cache + " (" + e
                        + "); this JVM writes a temporary one");
            }
        }
        File out = File.createTempFile("odrust-shuffle-rt", ".jar");
        out.deleteOnExit();
        write(out.toPath(), names.keySet(), self);
        return new RuntimeJar(out, false, transformerKey);
    }

    /** A CRC-32 of entry names and their checksums. */
    private static long checksum(Map<String, Long> names) {
        CRC32 key = new CRC32();
        for (Map.Entry<String, Long> e : names.entrySet()) {
            key.update((e.getKey() + "=" + e.getValue() + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return key.getValue();
    }

    /** The runtime's jar in {@code cache}: the one an earlier JVM left for these classes, else written now. */
    private static File cached(Path cache, Map<String, Long> names, Path self) throws IOException {
        Path jar = cache.resolve("odrust-shuffle-rt-" + Long.toHexString(checksum(names)) + ".jar");
        sweep(cache);
        if (Files.isRegularFile(jar) && readable(jar)) {
            return jar.toFile();
        }
        Files.createDirectories(cache);
        // written whole beside it, then renamed: a JVM starting meanwhile never sees half a jar
        Path part = cache.resolve(jar.getFileName() + "." + Long.toHexString(System.nanoTime())
                + Long.toHexString(new Random().nextLong()) + ".part");
        try {
            write(part, names.keySet(), self);
            Files.move(part, jar, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(part);
            if (!Files.isRegularFile(jar) || !readable(jar)) { // another JVM may have put it there first
                throw e;
            }
        }
        return jar.toFile();
    }

    /** A {@code .part} file this old was left by a JVM killed while writing it. */
    static final long STALE_PART_MILLIS = 10 * 60 * 1000L;

    /**
     * Deletes the half-written runtime jars ({@code .part}) that JVMs killed while writing them left
     * in {@code cache}: those older than {@link #STALE_PART_MILLIS} (a younger one may be being
     * written now). Best effort: what cannot be listed or deleted stays.
     */
    private static void sweep(Path cache) {
        long before = System.currentTimeMillis() - STALE_PART_MILLIS;
        try (DirectoryStream<Path> parts = Files.newDirectoryStream(cache, "odrust-shuffle-*.part")) {
            for (Path part : parts) {
                try {
                    if (Files.getLastModifiedTime(part).toMillis() < before) {
                        Files.deleteIfExists(part);
                    }
                } catch (IOException e) {
                    // another JVM swept it, or it cannot be deleted: left as it is
                }
            }
        } catch (IOException e) {
            // no cache directory yet, or it cannot be listed
        }
    }

    /** Whether {@code jar} opens as a jar (a damaged one is written again). */
    private static boolean readable(Path jar) {
        try (JarFile j = new JarFile(jar.toFile())) {
            return j.size() > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Writes {@code names} as a jar at {@code out}, each read from {@code self} (the agent's jar or
     * class directory: the copy whose checksums name the kept jar, not another one a test class
     * path may hold).
     */
    private static void write(Path out, Iterable<String> names, Path self) throws IOException {
        JarFile source = Files.isDirectory(self) ? null : new JarFile(self.toFile());
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(out))) {
            for (String n : names) {
                jar.putNextEntry(new JarEntry(n));
                if (source == null) {
                    Files.copy(self.resolve(n), jar);
                } else {
                    JarEntry entry = source.getJarEntry(n);
                    if (entry == null) {
                        throw new IOException("cannot read " + n + " from " + self);
                    }
                    try (InputStream in = source.getInputStream(entry)) {
                        copy(in, jar);
                    }
                }
                jar.closeEntry();
            }
        } finally {
            if (source != null) {
                source.close();
            }
        }
    }

    private static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) > 0; ) {
            out.write(buf, 0, n);
        }
    }
}
