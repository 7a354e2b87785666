package io.github.odrust.maven.repair.id;

import com.github.javaparser.ParseResult;
import com.github.javaparser.Position;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.TextBlockLiteralExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.TypeParameter;
import io.github.odrust.maven.repair.JavaSources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * DexFix's domain-specific rewrites of implementation-dependent tests (tests that assume an
 * iteration order the JDK does not promise), at the source line odrust pinned the shuffled JDK
 * call to:
 *
 * <ul>
 *   <li>{@link #hashToLinkedHash HashToLinkedHash}: {@code new HashMap<>(..)} / {@code new HashSet<>(..)} becomes
 *       {@code new LinkedHashMap<>(..)} / {@code new LinkedHashSet<>(..)};
 *   <li>{@link #sortReflection SortFields}: {@code c.getDeclaredFields()} (and the other reflection arrays) is sorted;
 *   <li>{@link #changeContainsExactly ChangeContainsExactly}: an assertion of an exact order becomes order-insensitive
 *       (AssertJ, Hamcrest, Truth).
 *   <li>{@link #jsonAssertion JSONAssertion}: a test's comparison of a JSON text literal compares JSON as JSON
 *       (JSONassert, Gson or Jackson).
 * </ul>
 *
 * <p>Each rewrite reads the whole text of one {@code .java} file and returns candidates, each the
 * text with one minimal edit (a range of characters replaced, plus an import line where needed):
 * every other character stays as it was, line separators included. Nothing is resolved: which
 * library a name belongs to is decided from the file's imports and qualifiers. The caller
 * compiles and verifies each candidate.
 */
final class DexFix {
    private DexFix() {}

    /** One candidate: the patched source text and a one-line description, or why the rewrite does not apply. */
    static final class Result {
        private final String source;
        private final String text;

        private Result(String source, String text) {
            this.source = source;
            this.text = text;
        }

        static Result patched(String source, String description) {
            return new Result(Objects.requireNonNull(source), Objects.requireNonNull(description));
        }

        static Result notApplicable(String reason) {
            return new Result(null, Objects.requireNonNull(reason));
        }

        /** Whether this is a patch (else it is a reason). */
        boolean applies() {
            return source != null;
        }

        /** The whole patched source text. */
        String source() {
            if (source == null) {
                throw new IllegalStateException("not applicable: " + text);
            }
            return source;
        }

        /** What the patch changes, one line. */
        String description() {
            if (source == null) {
                throw new IllegalStateException("not applicable: " + text);
            }
            return text;
        }

        /** Why the rewrite does not apply, one line naming the line (and the file where its name is known). */
        String reason() {
            if (source != null) {
                throw new IllegalStateException("applies: " + text);
            }
            return text;
        }

        @Override
        public String toString() {
            return (applies() ? "patch: " : "not applicable: ") + text;
        }
    }

    private static final String[] REFLECTION = {
        "getDeclaredFields",
        "getFields",
        "getDeclaredMethods",
        "getMethods",
        "getDeclaredConstructors",
        "getConstructors"
    };

    /**
     * HashToLinkedHash: the {@code new HashMap} (or {@code new HashSet}) creations on {@code line}
     * (those that start on it, else those that span it), each as its own candidate: the type's
     * name becomes {@code LinkedHashMap} ({@code LinkedHashSet}), type arguments, diamond,
     * constructor arguments and anonymous bodies kept. {@code java.util.LinkedHashMap} is imported
     * when the file needs it, or written fully qualified when its simple name means another type
     * in this file. Declared types are left alone (a LinkedHashMap is a HashMap).
     *
     * @param type {@code HashMap} or {@code HashSet}
     * @return the candidates in source order, or one result that does not apply
     */
    static List<Result> hashToLinkedHash(String source, int line, String type) {
        String simple = type.startsWith("java.util.") ? type.substring("java.util.".length()) : type;
        if (!simple.equals("HashMap") && !simple.equals("HashSet")) {
            throw new IllegalArgumentException("HashToLinkedHash rewrites HashMap or HashSet, not " + type);
        }
        String linked = "Linked" + simple;
        try {
            Src s = Src.parse(source, line);
            List<ObjectCreationExpr> creations = onLine(
                    s.cu.findAll(
                            ObjectCreationExpr.class,
                            e -> e.getType().getNameAsString().equals(simple)),
                    line,
                    e -> e.getType().getName());
            if (creations.isEmpty()) {
                return reason(s.where(line) + " has no `new " + simple + "` expression");
            }
            List<Result> results = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (ObjectCreationExpr e : creations) {
                ClassOrInterfaceType t = e.getType();
                String scope = t.getScope().map(ClassOrInterfaceType::asString).orElse(null);
                List<Edit> edits = new ArrayList<>();
                String name;
                String note = "";
                if (scope != null) {
                    if (!scope.equals("java.util")) {
                        notes.add("new " + t.asString() + " is not java.util's");
                        continue;
                    }
                    name = linked;
                } else if (!s.isJavaUtil(simple)) {
                    notes.add(simple + " is not java.util." + simple + " here (the file neither imports java.util."
                            + simple + " nor java.util.*, or declares its own)");
                    continue;
                } else {
                    Optional<ImportDeclaration> anchor = s.singleImport("java.util." + simple, false);
                    Naming n = s.typeName("java.util", linked, anchor);
                    name = n.text;
                    note = n.note;
                    if (n.edit != null) {
                        edits.add(n.edit);
                    }
                }
                edits.add(s.replace(t.getName(), simple, name));
                String before = s.creation(e, null);
                String after = s.creation(e, name);
                results.add(Result.patched(
                        s.apply(edits), before + " at " + Src.at(e, creations) + " becomes " + after + note));
            }
            return results.isEmpty()
                    ? reason(s.where(line) + " has no `new java.util." + simple + "` expression: "
                            + String.join("; ", notes))
                    : results;
        } catch (NotApplicable n) {
            return reason(n.getMessage());
        }
    }

    /**
     * SortFields: the calls {@code <scope>.<method>()} on {@code line} (those that start there,
     * else those that span it), each as its own candidate, wrapped so that the array comes sorted:
     * fields and methods by name then {@code toString()} (overloads, and inherited members that
     * share a name, get a fixed order), constructors by {@code toString()}. The array's type is
     * kept ({@code Constructor<?>[]} through a parenthesized cast), so the expression fits
     * wherever the call did.
     *
     * @param method getDeclaredFields, getFields, getDeclaredMethods, getMethods, getDeclaredConstructors or getConstructors
     * @return the candidates in source order, or one result that does not apply
     */
    static List<Result> sortReflection(String source, int line, String method) {
        return sortReflection(source, line, method, true);
    }

    /**
     * SortFields as above; {@code java8 == false} (sources compiled for Java 7 or older, without
     * lambdas or method references): the array is sorted in place by {@code Arrays.sort} with an
     * anonymous {@code Comparator}, inside an anonymous class's method called right away.
     */
    static List<Result> sortReflection(String source, int line, String method, boolean java8) {
        if (!List.of(REFLECTION).contains(method)) {
            throw new IllegalArgumentException(
                    "SortFields sorts the arrays of " + String.join(", ", REFLECTION) + ", not " + method);
        }
        String prefix;
        String suffix;
        String order;
        if (method.endsWith("Fields")) {
            prefix = "java.util.Arrays.stream(";
            suffix = ").sorted(java.util.Comparator.comparing(java.lang.reflect.Field::getName)"
                    + ".thenComparing(java.lang.reflect.Field::toString)).toArray(java.lang.reflect.Field[]::new)";
            order = "by name, then toString()";
        } else if (method.endsWith("Methods")) {
            prefix = "java.util.Arrays.stream(";
            suffix = ").sorted(java.util.Comparator.comparing(java.lang.reflect.Method::getName)"
                    + ".thenComparing(java.lang.reflect.Method::toString)).toArray(java.lang.reflect.Method[]::new)";
            order = "by name, then toString()";
        } else {
            // Constructor<?>[]::new would be a generic array creation: make a raw array and cast it back.
            prefix = "((java.lang.reflect.Constructor<?>[]) java.util.Arrays.stream(";
            suffix = ").sorted(java.util.Comparator.comparing(java.lang.reflect.Constructor::toString))"
                    + ".toArray(java.lang.reflect.Constructor[]::new))";
            order = "by toString()";
        }
        String how = "java.util.Arrays.stream(...).sorted(...).toArray(...)";
        if (!java8) {
            String type = method.endsWith("Fields")
                    ? "java.lang.reflect.Field"
                    : method.endsWith("Methods") ? "java.lang.reflect.Method" : "java.lang.reflect.Constructor<?>";
            String compare = type.endsWith("Constructor<?>")
                    ? "return x.toString().compareTo(y.toString());"
                    : "int c = x.getName().compareTo(y.getName()); return c != 0 ? c : x.toString().compareTo(y.toString());";
            prefix = "new Object() { " + type + "[] sorted(" + type
                    + "[] a) { java.util.Arrays.sort(a, new java.util.Comparator<" + type + ">() { public int compare("
                    + type + " x, " + type + " y) { " + compare + " } }); return a; } }.sorted(";
            suffix = ")";
            how = "Arrays.sort with a Comparator, for Java 7";
        }
        try {
            Src s = Src.parse(source, line);
            List<MethodCallExpr> calls = onLine(
                    s.cu.findAll(
                            MethodCallExpr.class,
                            c -> c.getNameAsString().equals(method)
                                    && c.getArguments().isEmpty()
                                    && c.getScope().isPresent()),
                    line,
                    MethodCallExpr::getName);
            if (calls.isEmpty()) {
                boolean reference =
                        s
                                .cu
                                .findAll(
                                        MethodReferenceExpr.class,
                                        r -> r.getIdentifier().equals(method))
                                .stream()
                                .anyMatch(r -> spans(r, line));
                return reason(s.where(line) + " has no `." + method + "()` call"
                        + (reference
                                ? " (it has a method reference ::" + method + "; SortFields rewrites calls only)"
                                : ""));
            }
            List<Result> results = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (MethodCallExpr c : calls) {
                String call = s.snippet(c);
                if (alreadySorted(c)) {
                    notes.add(call + " is sorted already");
                    continue;
                }
                if (c.getParentNode().orElse(null) instanceof ExpressionStmt) {
                    notes.add(call + " is a statement whose result is not used");
                    continue;
                }
                List<Edit> edits = List.of(s.insert(s.begin(c), prefix), s.insert(s.end(c), suffix));
                results.add(Result.patched(
                        s.apply(edits),
                        "SortFields: " + call + " at " + Src.at(c, calls) + " is sorted " + order + " (" + how + ")"));
            }
            return results.isEmpty() ? reason(s.where(line) + ": " + String.join("; ", notes)) : results;
        } catch (NotApplicable n) {
            return reason(n.getMessage());
        }
    }

    /** Whether the call is already {@code Arrays.stream(call).sorted(..)}. */
    private static boolean alreadySorted(MethodCallExpr c) {
        Node p = c.getParentNode().orElse(null);
        if (!(p instanceof MethodCallExpr)
                || !((MethodCallExpr) p).getNameAsString().equals("stream")) {
            return false;
        }
        Node q = p.getParentNode().orElse(null);
        return q instanceof MethodCallExpr
                && ((MethodCallExpr) q).getNameAsString().equals("sorted")
                && ((MethodCallExpr) q).getScope().map(x -> x == p).orElse(false);
    }

    /** Truth's order-checking calls that {@code .inOrder()} can follow. */
    private static final List<String> TRUTH_ORDERED = List.of(
            "containsExactly",
            "containsExactlyElementsIn",
            "containsExactlyEntriesIn",
            "containsAtLeast",
            "containsAtLeastElementsIn",
            "containsAtLeastEntriesIn");

    /** The calls ChangeContainsExactly looks at besides AssertJ's and Hamcrest's. */
    private static final List<String> RELAXED = List.of(
            "inOrder", "containsExactlyElementsIn", "assertEquals", "assertArrayEquals", "assertIterableEquals");

    /** AssertJ's exact-order assertions and their order-insensitive twins. */
    private static final Map<String, String> ASSERTJ = Map.of(
            "containsExactly",
            "containsExactlyInAnyOrder",
            "containsExactlyElementsOf",
            "containsExactlyInAnyOrderElementsOf",
            "containsExactlyEntriesOf",
            "containsExactlyInAnyOrderEntriesOf");

    /** Hamcrest's in-order matchers: the method, its any-order twin, their classes in org.hamcrest.collection. */
    private static final Map<String, String[]> HAMCREST = Map.of(
            "contains",
                    new String[] {"containsInAnyOrder", "IsIterableContainingInOrder", "IsIterableContainingInAnyOrder"
                    },
            "arrayContaining",
                    new String[] {"arrayContainingInAnyOrder", "IsArrayContainingInOrder", "IsArrayContainingInAnyOrder"
                    });

    private static final String MATCHERS = "org.hamcrest.Matchers";
    private static final String COLLECTION = "org.hamcrest.collection.";

    /**
     * ChangeContainsExactly: the assertions of an exact order in the statement(s) containing
     * {@code line}, each as its own candidate, made order-insensitive: AssertJ
     * {@code containsExactly(} becomes {@code containsExactlyInAnyOrder(} (and a map's
     * {@code containsOnly(}, a second candidate when every argument is an {@code entry(..)}),
     * {@code containsExactlyElementsOf(} / {@code containsExactlyEntriesOf(} their
     * {@code InAnyOrder} forms; Hamcrest {@code contains(} / {@code arrayContaining(} become
     * {@code containsInAnyOrder(} / {@code arrayContainingInAnyOrder(} (with the static import);
     * Truth's {@code .inOrder()} is removed. JUnit's {@code assertEquals} and
     * {@code assertArrayEquals} are not rewritten (the reason says why).
     *
     * @return the candidates in source order, or one result that does not apply
     */
    static List<Result> changeContainsExactly(String source, int line) {
        try {
            Src s = Src.parse(source, line);
            List<Statement> spanning =
                    s.cu.findAll(Statement.class, st -> !(st instanceof BlockStmt) && spans(st, line));
            List<Statement> statements = spanning.stream()
                    .filter(st -> spanning.stream().noneMatch(o -> o != st && o.isDescendantOf(st)))
                    .collect(Collectors.toList());
            if (statements.isEmpty()) {
                return reason(s.where(line) + " is in no statement");
            }
            List<MethodCallExpr> calls = new ArrayList<>();
            for (Statement st : statements) {
                calls.addAll(st.findAll(
                        MethodCallExpr.class,
                        c -> c.findAncestor(Statement.class).orElse(null) == st));
            }
            calls.removeIf(c -> !RELAXED.contains(c.getNameAsString())
                            && !HAMCREST.containsKey(c.getNameAsString())
                            && !ASSERTJ.containsKey(c.getNameAsString())
                    || followedByInOrder(c));
            calls.sort(Comparator.comparingInt(c -> s.begin(c.getName())));
            List<Result> results = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (MethodCallExpr c : calls) {
                String name = c.getNameAsString();
                if (name.equals("inOrder")
                        && c.getArguments().isEmpty()
                        && c.getScope().isPresent()
                        && c.getScope().get() instanceof MethodCallExpr
                        && TRUTH_ORDERED.contains(((MethodCallExpr) c.getScope().get()).getNameAsString())) {
                    truthInOrder(s, c, calls, results, notes);
                } else if (ASSERTJ.containsKey(name) || name.equals("containsExactlyElementsIn")) {
                    Library lib = ASSERTJ.containsKey(name) ? s.assertionLibrary(c) : Library.TRUTH;
                    if (lib == Library.TRUTH) {
                        notes.add("Truth's " + name + "(...) without .inOrder() ignores order already");
                    } else if (lib == Library.UNKNOWN) {
                        notes.add(name + "(...) is neither AssertJ's nor Truth's as far as the imports tell");
                    } else {
                        assertj(s, c, calls, results);
                    }
                } else if (HAMCREST.containsKey(name)) {
                    hamcrest(s, c, calls, results, notes);
                } else if (name.equals("assertEquals")
                        || name.equals("assertArrayEquals")
                        || name.equals("assertIterableEquals")) {
                    notes.add(
                            name + " compares in order, and it has no order-insensitive equivalent without knowing the"
                                    + " types (a List against a Set, arrays, maps)");
                }
            }
            if (results.isEmpty()) {
                return reason(s.where(line) + " has no order-sensitive assertion to relax (AssertJ containsExactly,"
                        + " Hamcrest contains, Truth .inOrder())"
                        + (notes.isEmpty() ? "" : ": " + String.join("; ", notes)));
            }
            return results;
        } catch (NotApplicable n) {
            return reason(n.getMessage());
        }
    }

    private static boolean followedByInOrder(MethodCallExpr c) {
        Node p = c.getParentNode().orElse(null);
        return p instanceof MethodCallExpr
                && ((MethodCallExpr) p).getNameAsString().equals("inOrder")
                && ((MethodCallExpr) p).getScope().map(x -> x == c).orElse(false);
    }

    private static void truthInOrder(
            Src s, MethodCallExpr inOrder, List<MethodCallExpr> calls, List<Result> results, List<String> notes)
            throws NotApplicable {
        MethodCallExpr ordered = (MethodCallExpr) inOrder.getScope().get();
        int from = s.end(ordered);
        int to = s.end(inOrder);
        if (!s.text.substring(from, to).replaceAll("\\s", "").equals(".inOrder()")) {
            notes.add(".inOrder() after " + ordered.getNameAsString() + "(...) has comments around it; not removed");
            return;
        }
        results.add(Result.patched(
                s.apply(List.of(new Edit(from, to, ""))),
                "Truth: .inOrder() after " + ordered.getNameAsString() + "(...) at " + Src.at(inOrder, calls)
                        + " removed (without it the assertion ignores order)"));
    }

    private static void assertj(Src s, MethodCallExpr c, List<MethodCallExpr> calls, List<Result> results)
            throws NotApplicable {
        String name = c.getNameAsString();
        List<String> targets = new ArrayList<>(List.of(ASSERTJ.get(name)));
        boolean entries = name.equals("containsExactly")
                && !c.getArguments().isEmpty()
                && c.getArguments().stream()
                        .allMatch(a -> a instanceof MethodCallExpr
                                && ((MethodCallExpr) a).getNameAsString().equals("entry"));
        if (entries) {
            targets.add("containsOnly");
        }
        for (String target : targets) {
            String extra = target.equals("containsOnly")
                    ? " (for a Map, whose assertion has no containsExactlyInAnyOrder;"
                            + " on a List it would let duplicates pass)"
                    : "";
            results.add(Result.patched(
                    s.apply(List.of(s.replace(c.getName(), name, target))),
                    "AssertJ: " + name + "( at " + Src.at(c, calls) + " becomes " + target + "(" + extra));
        }
    }

    private static void hamcrest(
            Src s, MethodCallExpr c, List<MethodCallExpr> calls, List<Result> results, List<String> notes)
            throws NotApplicable {
        String name = c.getNameAsString();
        String[] twin = HAMCREST.get(name);
        String target = twin[0];
        String inOrderClass = COLLECTION + twin[1];
        String anyOrderClass = COLLECTION + twin[2];
        List<Edit> edits = new ArrayList<>();
        String note = "";
        String rewritten;
        if (c.getScope().isPresent()) {
            String origin = s.classOf(c.getScope().get());
            if (MATCHERS.equals(origin)) {
                edits.add(s.replace(c.getName(), name, target));
                rewritten = c.getScope().get() + "." + target + "(";
            } else if (inOrderClass.equals(origin)) {
                Edit e = new Edit(s.begin(c.getScope().get()), s.end(c.getName()), anyOrderClass + "." + target);
                edits.add(e);
                rewritten = e.text + "(";
            } else {
                return; // list.contains(x), not a matcher
            }
        } else {
            if (s.enclosingDeclares(c, name)) {
                notes.add(name + "(...) calls the class's own method " + name);
                return;
            }
            String origin = s.staticOrigin(name);
            if (!MATCHERS.equals(origin) && !inOrderClass.equals(origin)) {
                if (name.equals("contains")) {
                    notes.add("contains(...) is not statically imported from org.hamcrest.Matchers or " + inOrderClass);
                }
                return;
            }
            String targetClass = MATCHERS.equals(origin) ? MATCHERS : anyOrderClass;
            // A single static import shadows on-demand ones; the class's own method shadows every import.
            Optional<String> single = s.staticSingle(target);
            boolean own = s.enclosingDeclares(c, target);
            boolean hamcrestSingle = single.isPresent()
                    && (single.get().equals(MATCHERS) || single.get().equals(anyOrderClass));
            boolean onDemand = s.onDemand(MATCHERS, true) || s.onDemand(anyOrderClass, true);
            if (!own && (hamcrestSingle || single.isEmpty() && onDemand)) {
                edits.add(s.replace(c.getName(), name, target));
                rewritten = target + "(";
            } else if (own || single.isPresent()) {
                edits.add(s.replace(c.getName(), name, targetClass + "." + target));
                rewritten = targetClass + "." + target + "(";
                note = " (written fully qualified: " + target + " means another method in this file)";
            } else {
                Optional<ImportDeclaration> anchor = s.singleImport(origin + "." + name, true);
                edits.add(s.importLine(anchor, "import static " + targetClass + "." + target + ";"));
                edits.add(s.replace(c.getName(), name, target));
                rewritten = target + "(";
                note = " (import static " + targetClass + "." + target + " added)";
            }
        }
        results.add(Result.patched(
                s.apply(edits),
                "Hamcrest: " + s.text.substring(s.begin(c), s.end(c.getName())) + "( at " + Src.at(c, calls)
                        + " becomes " + rewritten + note));
    }

    /** JSON libraries a JSONAssertion rewrite may use, best first. */
    enum JsonLibrary {
        JSONASSERT,
        /** Gson 2.8.6 or later: {@code JsonParser.parseString}. */
        GSON,
        /** Gson before 2.8.6: {@code new JsonParser().parse}. */
        GSON_LEGACY,
        JACKSON
    }

    /**
     * JSONAssertion: in the test method {@code method}, each assertion that compares a JSON text
     * literal (a string or text block whose text starts with <code>{</code> or <code>[</code>, or a
     * concatenation starting with one) with another value compares them as JSON instead, so the
     * order of an object's keys no longer matters: JUnit {@code assertEquals(json, actual)} (a
     * message first or last kept) and AssertJ {@code assertThat(actual).isEqualTo(json)}. With
     * JSONassert the assertion becomes {@code JSONAssert.assertEquals(json, actual, true)} (strict:
     * arrays keep their order) and the method declares {@code throws Exception} when it must; with
     * Gson both sides are parsed with {@code JsonParser.parseString}; with Jackson with
     * {@code ObjectMapper.readTree}.
     *
     * @param libraries the JSON libraries on the test classpath, best first
     * @return one candidate per assertion rewritten (each alone), or one result that does not apply
     */
    static List<Result> jsonAssertion(String source, String method, List<JsonLibrary> libraries) {
        try {
            Src s = Src.parse(source, 1);
            List<MethodDeclaration> methods = s.cu.findAll(
                    MethodDeclaration.class,
                    m -> m.getNameAsString().equals(method) && m.getBody().isPresent());
            if (methods.isEmpty()) {
                return reason(s.file() + " has no method " + method + " with a body");
            }
            if (libraries.isEmpty()) {
                return reason(
                        "no JSON library on the test classpath (JSONassert, Gson or Jackson) to compare JSON texts with");
            }
            JsonLibrary lib = libraries.get(0);
            List<Result> results = new ArrayList<>();
            for (MethodDeclaration m : methods) {
                List<MethodCallExpr> calls = m.findAll(MethodCallExpr.class);
                calls.sort(Comparator.comparingInt(c -> s.begin(c)));
                for (MethodCallExpr c : calls) {
                    Edit edit = jsonEdit(s, c, lib);
                    if (edit == null) {
                        continue;
                    }
                    List<Edit> edits = new ArrayList<>();
                    edits.add(edit);
                    String throwsNote = "";
                    if ((lib == JsonLibrary.JSONASSERT || lib == JsonLibrary.JACKSON) && !throwsException(m)) {
                        edits.add(throwsEdit(s, m));
                        throwsNote = "; " + method + " declares throws Exception";
                    }
                    results.add(Result.patched(
                            s.apply(edits),
                            "JSONAssertion: the assertion at line "
                                    + c.getBegin().get().line
                                    + " compares JSON as JSON ("
                                    + (lib == JsonLibrary.JSONASSERT
                                            ? "JSONAssert, strict"
                                            : lib == JsonLibrary.JACKSON ? "Jackson's readTree" : "Gson's JsonParser")
                                    + ")" + throwsNote));
                }
            }
            if (results.isEmpty()) {
                return reason(
                        method + " in " + s.file() + " compares no JSON text literal (assertEquals or AssertJ isEqualTo"
                                + " with a string starting with { or [)");
            }
            return results;
        } catch (NotApplicable n) {
            return reason(n.getMessage());
        }
    }

    /** The edit that makes {@code c} compare JSON as JSON, or null when it is no such assertion. */
    private static Edit jsonEdit(Src s, MethodCallExpr c, JsonLibrary lib) throws NotApplicable {
        String name = c.getNameAsString();
        if (name.equals("assertEquals")
                && (c.getArguments().size() == 2 || c.getArguments().size() == 3)) {
            List<Expression> args = c.getArguments();
            int json = -1;
            for (int i = 0; i < args.size(); i++) {
                if (isJsonLiteral(args.get(i))) {
                    json = i;
                }
            }
            if (json < 0) {
                return null;
            }
            int actual;
            if (args.size() == 2) {
                actual = 1 - json;
            } else if (json == 1) {
                actual = args.get(0) instanceof StringLiteralExpr ? 2 : 0; // JUnit 4: message first; JUnit 5: last
            } else {
                actual = 1;
            }
            String expectedText = s.text.substring(s.begin(args.get(json)), s.end(args.get(json)));
            String actualText = s.text.substring(s.begin(args.get(actual)), s.end(args.get(actual)));
            String whole = s.text.substring(s.begin(c), s.end(c));
            if (lib == JsonLibrary.JSONASSERT) {
                String exp = json < actual ? expectedText : actualText;
                String act = json < actual ? actualText : expectedText;
                return s.replace(
                        c, whole, "org.skyscreamer.jsonassert.JSONAssert.assertEquals(" + exp + ", " + act + ", true)");
            }
            // keep the call (and its message); parse both sides
            List<Edit> inner = new ArrayList<>();
            inner.add(new Edit(
                    s.begin(args.get(json)) - s.begin(c),
                    s.end(args.get(json)) - s.begin(c),
                    parse(lib, expectedText)));
            inner.add(new Edit(
                    s.begin(args.get(actual)) - s.begin(c),
                    s.end(args.get(actual)) - s.begin(c),
                    parse(lib, actualText)));
            return s.replace(c, whole, applyTo(whole, inner));
        }
        if (name.equals("isEqualTo")
                && c.getArguments().size() == 1
                && isJsonLiteral(c.getArgument(0))
                && c.getScope().isPresent()
                && c.getScope().get() instanceof MethodCallExpr
                && ((MethodCallExpr) c.getScope().get()).getNameAsString().equals("assertThat")
                && ((MethodCallExpr) c.getScope().get()).getArguments().size() == 1) {
            MethodCallExpr assertThat = (MethodCallExpr) c.getScope().get();
            Expression actualExpr = assertThat.getArgument(0);
            String expectedText = s.text.substring(s.begin(c.getArgument(0)), s.end(c.getArgument(0)));
            String actualText = s.text.substring(s.begin(actualExpr), s.end(actualExpr));
            String whole = s.text.substring(s.begin(c), s.end(c));
            if (lib == JsonLibrary.JSONASSERT) {
                return s.replace(
                        c,
                        whole,
                        "org.skyscreamer.jsonassert.JSONAssert.assertEquals(" + expectedText + ", " + actualText
                                + ", true)");
            }
            List<Edit> inner = new ArrayList<>();
            inner.add(
                    new Edit(s.begin(actualExpr) - s.begin(c), s.end(actualExpr) - s.begin(c), parse(lib, actualText)));
            inner.add(new Edit(
                    s.begin(c.getArgument(0)) - s.begin(c),
                    s.end(c.getArgument(0)) - s.begin(c),
                    parse(lib, expectedText)));
            return s.replace(c, whole, applyTo(whole, inner));
        }
        return null;
    }

    private static String parse(JsonLibrary lib, String expr) {
        switch (lib) {
            case GSON:
                return "com.google.gson.JsonParser.parseString(" + expr + ")";
            case GSON_LEGACY:
                return "new com.google.gson.JsonParser().parse(" + expr + ")";
            default:
                return "new com.fasterxml.jackson.databind.ObjectMapper().readTree(" + expr + ")";
        }
    }

    private static String applyTo(String text, List<Edit> edits) {
        List<Edit> sorted = new ArrayList<>(edits);
        sorted.sort(Comparator.comparingInt((Edit e) -> e.start));
        StringBuilder b = new StringBuilder();
        int at = 0;
        for (Edit e : sorted) {
            b.append(text, at, e.start).append(e.text);
            at = e.end;
        }
        return b.append(text.substring(at)).toString();
    }

    private static boolean isJsonLiteral(Expression e) {
        Expression first = e;
        while (first instanceof BinaryExpr && ((BinaryExpr) first).getOperator() == BinaryExpr.Operator.PLUS) {
            first = ((BinaryExpr) first).getLeft();
        }
        String value = null;
        if (first instanceof StringLiteralExpr) {
            value = ((StringLiteralExpr) first).getValue();
        } else if (first instanceof TextBlockLiteralExpr) {
            value = ((TextBlockLiteralExpr) first).getValue();
        }
        if (value == null) {
            return false;
        }
        String v = value.trim();
        return v.startsWith("{") || v.startsWith("[");
    }

    private static boolean throwsException(MethodDeclaration m) {
        return m.getThrownExceptions().stream().anyMatch(t -> {
            String n = t.asString();
            return n.equals("Exception")
                    || n.equals("java.lang.Exception")
                    || n.equals("Throwable")
                    || n.equals("java.lang.Throwable");
        });
    }

    /** {@code throws Exception} added to the method's declaration (or {@code , Exception} to its clause). */
    private static Edit throwsEdit(Src s, MethodDeclaration m) {
        if (m.getThrownExceptions().isNonEmpty()) {
            return s.insert(s.end(m.getThrownExceptions().getLast().get()), ", Exception");
        }
        int body = s.begin(m.getBody().get());
        boolean space = body > 0 && Character.isWhitespace(s.text.charAt(body - 1));
        return s.insert(body, (space ? "" : " ") + "throws Exception" + (space ? " " : " "));
    }

    private static List<Result> reason(String reason) {
        return List.of(Result.notApplicable(reason));
    }

    /** The nodes that begin on {@code line} (or whose {@code anchor} does), else those that span it; in source order. */
    private static <N extends Node> List<N> onLine(List<N> nodes, int line, Function<N, Node> anchor) {
        List<N> starting = nodes.stream()
                .filter(n -> beginLine(n) == line || beginLine(anchor.apply(n)) == line)
                .collect(Collectors.toList());
        List<N> found =
                starting.isEmpty() ? nodes.stream().filter(n -> spans(n, line)).collect(Collectors.toList()) : starting;
        found.sort(Comparator.comparing((N n) -> n.getBegin().get()));
        return found;
    }

    private static int beginLine(Node n) {
        return n.getBegin().map(p -> p.line).orElse(-1);
    }

    private static boolean spans(Node n, int line) {
        return n.getRange().map(r -> r.begin.line <= line && line <= r.end.line).orElse(false);
    }

    /** Why a rewrite does not apply, found deep inside. */
    private static final class NotApplicable extends Exception {
        NotApplicable(String message) {
            super(message);
        }
    }

    /** Replaces the characters {@code [start, end)} with {@code text}. */
    private static final class Edit {
        final int start;
        final int end;
        final String text;

        Edit(int start, int end, String text) {
            this.start = start;
            this.end = end;
            this.text = text;
        }
    }

    /** A name to write for a type: its simple or qualified name, the import it needs, what the description adds. */
    private static final class Naming {
        final String text;
        final Edit edit;
        final String note;

        Naming(String text, Edit edit, String note) {
            this.text = text;
            this.edit = edit;
            this.note = note;
        }
    }

    private enum Library {
        ASSERTJ,
        TRUTH,
        UNKNOWN
    }

    /** One parsed source: its text, line starts and separator, its compilation unit. */
    private static final class Src {
        final String text;
        final String eol;
        final int[] lineStarts;
        final CompilationUnit cu;

        private Src(String text, CompilationUnit cu) {
            this.text = text;
            this.cu = cu;
            this.eol = text.contains("\r\n") ? "\r\n" : "\n";
            List<Integer> starts = new ArrayList<>();
            starts.add(0);
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) == '\n') {
                    starts.add(i + 1);
                }
            }
            lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
        }

        static Src parse(String text, int line) throws NotApplicable {
            ParseResult<CompilationUnit> r = JavaSources.parser().parse(text);
            if (!r.isSuccessful() || r.getResult().isEmpty()) {
                String problem = r.getProblems().isEmpty()
                        ? "unknown problem"
                        : r.getProblems().get(0).getVerboseMessage();
                throw new NotApplicable("cannot parse the source: " + problem.split("\\R", 2)[0]);
            }
            Src s = new Src(text, r.getResult().get());
            if (line < 1 || line > s.lineStarts.length) {
                throw new NotApplicable(s.file() + " has no line " + line + " (it has " + s.lineStarts.length + ")");
            }
            return s;
        }

        /** The file's name as its public top-level type gives it, else the name of its first type. */
        String file() {
            Optional<TypeDeclaration<?>> pub =
                    cu.getTypes().stream().filter(TypeDeclaration::isPublic).findFirst();
            if (pub.isPresent()) {
                return pub.get().getNameAsString() + ".java";
            }
            return cu.getTypes().isEmpty()
                    ? "the source"
                    : "the source of " + cu.getType(0).getNameAsString();
        }

        String where(int line) {
            return "line " + line + " of " + file();
        }

        /** "line 12" (of a call, its method's name), with the column when other candidates share the line. */
        static String at(Node n, List<? extends Node> candidates) {
            Position p = anchor(n).getBegin().get();
            boolean shared = candidates.stream().filter(o -> o != n).anyMatch(o -> beginLine(anchor(o)) == p.line);
            return "line " + p.line + (shared ? ", column " + p.column : "");
        }

        private static Node anchor(Node n) {
            return n instanceof MethodCallExpr ? ((MethodCallExpr) n).getName() : n;
        }

        int offset(Position p) {
            return lineStarts[p.line - 1] + p.column - 1;
        }

        int begin(Node n) {
            return offset(n.getBegin().get());
        }

        /** The offset just after the node. */
        int end(Node n) {
            return offset(n.getEnd().get()) + 1;
        }

        /** Replaces the node, whose text must be {@code expected}, with {@code text}. */
        Edit replace(Node n, String expected, String text) throws NotApplicable {
            int b = begin(n);
            int e = end(n);
            if (e > this.text.length() || !this.text.substring(b, e).equals(expected)) {
                throw new NotApplicable("the parser's position of " + expected + " at line "
                        + n.getBegin().get().line + " does not match the text (tabs or unusual line ends?)");
            }
            return new Edit(b, e, text);
        }

        Edit insert(int offset, String text) {
            return new Edit(offset, offset, text);
        }

        String apply(List<Edit> edits) {
            List<Edit> sorted = new ArrayList<>(edits);
            sorted.sort(Comparator.comparingInt((Edit e) -> e.start).thenComparingInt(e -> e.end));
            StringBuilder b = new StringBuilder(text.length() + 256);
            int at = 0;
            for (Edit e : sorted) {
                if (e.start < at) {
                    throw new IllegalStateException("overlapping edits");
                }
                b.append(text, at, e.start).append(e.text);
                at = e.end;
            }
            return b.append(text, at, text.length()).toString();
        }

        /** The node's text on one line, shortened. */
        String snippet(Node n) {
            String t = text.substring(begin(n), end(n)).replaceAll("\\s*\\R\\s*", " ");
            return t.length() <= 60 ? t : "..." + t.substring(t.length() - 57);
        }

        /** {@code new T<..>(...)}, with its type named {@code name} instead of as written when given. */
        String creation(ObjectCreationExpr e, String name) {
            ClassOrInterfaceType t = e.getType();
            String type = text.substring(begin(t), end(t)).replaceAll("\\s*\\R\\s*", " ");
            if (name != null) {
                int nb = begin(t.getName()) - begin(t);
                int ne = end(t.getName()) - begin(t);
                String written = text.substring(begin(t), end(t));
                type = (written.substring(0, nb) + name + written.substring(ne)).replaceAll("\\s*\\R\\s*", " ");
            }
            return "new " + type + (e.getArguments().isEmpty() ? "()" : "(...)")
                    + (e.getAnonymousClassBody().isPresent() ? " {...}" : "");
        }

        /** The single-type (or single static) import of exactly {@code name}. */
        Optional<ImportDeclaration> singleImport(String name, boolean isStatic) {
            return cu.getImports().stream()
                    .filter(i -> i.isStatic() == isStatic
                            && !i.isAsterisk()
                            && i.getNameAsString().equals(name))
                    .findFirst();
        }

        boolean onDemand(String name, boolean isStatic) {
            return cu.getImports().stream()
                    .anyMatch(i -> i.isStatic() == isStatic
                            && i.isAsterisk()
                            && i.getNameAsString().equals(name));
        }

        /** Whether the file declares a type or type parameter named {@code simple}. */
        boolean declares(String simple) {
            return !cu.findAll(TypeDeclaration.class, t -> t.getNameAsString().equals(simple))
                            .isEmpty()
                    || !cu.findAll(TypeParameter.class, t -> t.getNameAsString().equals(simple))
                            .isEmpty();
        }

        /** The single-type import (non-static) whose simple name is {@code simple}. */
        Optional<ImportDeclaration> importOfSimple(String simple) {
            return cu.getImports().stream()
                    .filter(i -> !i.isAsterisk()
                            && (i.getNameAsString().endsWith("." + simple)
                                    || i.getNameAsString().equals(simple))
                            && !i.isStatic())
                    .findFirst();
        }

        /** Whether the simple type name means java.util's type here. */
        boolean isJavaUtil(String simple) {
            if (declares(simple)) {
                return false;
            }
            Optional<ImportDeclaration> single = importOfSimple(simple);
            if (single.isPresent()) {
                return single.get().getNameAsString().equals("java.util." + simple);
            }
            return onDemand("java.util", false);
        }

        /** How to write {@code pkg.simple} here: imported already, to import, or fully qualified on a clash. */
        Naming typeName(String pkg, String simple, Optional<ImportDeclaration> anchor) {
            String qualified = pkg + "." + simple;
            Optional<ImportDeclaration> single = importOfSimple(simple);
            boolean staticMember = cu.getImports().stream()
                    .anyMatch(i -> i.isStatic()
                            && !i.isAsterisk()
                            && i.getNameAsString().endsWith("." + simple));
            if (declares(simple)
                    || staticMember
                    || single.isPresent() && !single.get().getNameAsString().equals(qualified)) {
                return new Naming(
                        qualified, null, " (written fully qualified: " + simple + " means another type in this file)");
            }
            if (single.isPresent() || onDemand(pkg, false)) {
                return new Naming(simple, null, "");
            }
            boolean used = !cu.findAll(
                                    ClassOrInterfaceType.class,
                                    t -> t.getScope().isEmpty()
                                            && t.getNameAsString().equals(simple))
                            .isEmpty()
                    || !cu.findAll(NameExpr.class, n -> n.getNameAsString().equals(simple))
                            .isEmpty();
            if (used) {
                // The file already says `simple` without importing java.util's: it means a type of its own package or
                // of an on-demand import.
                return new Naming(
                        qualified, null, " (written fully qualified: the file's " + simple + " is not java.util's)");
            }
            return new Naming(simple, importLine(anchor, "import " + qualified + ";"), " (" + qualified + " imported)");
        }

        /** Adds {@code importLine} as its own line after {@code anchor}, else after the last import, else after the package line. */
        Edit importLine(Optional<ImportDeclaration> anchor, String importLine) {
            Optional<? extends Node> after = anchor.isPresent()
                    ? anchor
                    : cu.getImports().isEmpty()
                            ? Optional.empty()
                            : Optional.of(cu.getImports().get(cu.getImports().size() - 1));
            if (after.isPresent()) {
                return afterLine(after.get().getEnd().get().line, importLine + eol);
            }
            if (cu.getPackageDeclaration().isPresent()) {
                return afterLine(cu.getPackageDeclaration().get().getEnd().get().line, eol + importLine + eol);
            }
            return insert(0, importLine + eol + eol);
        }

        /** Inserts {@code s} at the start of the line after {@code line} (at the end, after a separator, when it is the last). */
        Edit afterLine(int line, String s) {
            if (line < lineStarts.length) {
                return insert(lineStarts[line], s);
            }
            return insert(text.length(), text.endsWith("\n") ? s : eol + s.substring(0, s.length() - eol.length()));
        }

        /** The class a qualifier names, from its qualified form or the file's single-type imports; null when unknown. */
        String classOf(Expression scope) {
            String q = scope.toString();
            if (q.contains(".")) {
                return q;
            }
            return importOfSimple(q).map(ImportDeclaration::getNameAsString).orElse(null);
        }

        /** The class of the single static import of {@code name}, if any. */
        Optional<String> staticSingle(String name) {
            return cu.getImports().stream()
                    .filter(i -> i.isStatic()
                            && !i.isAsterisk()
                            && i.getNameAsString().endsWith("." + name))
                    .map(i ->
                            i.getNameAsString().substring(0, i.getNameAsString().length() - name.length() - 1))
                    .findFirst();
        }

        /**
         * The class a statically imported method {@code name} comes from: its single static import,
         * else a Hamcrest class imported on demand that has it; null when neither.
         */
        String staticOrigin(String name) {
            Optional<String> single = staticSingle(name);
            if (single.isPresent()) {
                return single.get();
            }
            for (ImportDeclaration i : cu.getImports()) {
                if (i.isStatic() && i.isAsterisk() && hamcrestHas(i.getNameAsString(), name)) {
                    return i.getNameAsString();
                }
            }
            return null;
        }

        /** Whether the Hamcrest class {@code className} has the matcher {@code method} (of those DexFix rewrites). */
        private static boolean hamcrestHas(String className, String method) {
            if (className.equals(MATCHERS)) {
                return HAMCREST.containsKey(method)
                        || HAMCREST.values().stream().anyMatch(t -> t[0].equals(method));
            }
            for (Map.Entry<String, String[]> e : HAMCREST.entrySet()) {
                if (className.equals(COLLECTION + e.getValue()[1]) && method.equals(e.getKey())
                        || className.equals(COLLECTION + e.getValue()[2]) && method.equals(e.getValue()[0])) {
                    return true;
                }
            }
            return false;
        }

        /** Whether a method named {@code name} is declared by a type (or anonymous class) that encloses {@code at}. */
        boolean enclosingDeclares(Node at, String name) {
            return !cu.findAll(
                            MethodDeclaration.class,
                            m -> m.getNameAsString().equals(name)
                                    && m.getParentNode().map(at::isDescendantOf).orElse(false))
                    .isEmpty();
        }

        /** Whose assertion a chain like {@code assertThat(x).containsExactly(..)} is, from its first call and the imports. */
        Library assertionLibrary(MethodCallExpr c) {
            Expression root = c;
            while (root instanceof MethodCallExpr
                    && ((MethodCallExpr) root).getScope().isPresent()
                    && ((MethodCallExpr) root).getScope().get() instanceof MethodCallExpr) {
                root = ((MethodCallExpr) root).getScope().get();
            }
            MethodCallExpr first = (MethodCallExpr) root;
            String origin;
            if (first.getScope().isPresent()) {
                origin = classOf(first.getScope().get());
            } else {
                origin = staticOrigin(first.getNameAsString());
            }
            Library byOrigin = library(origin);
            if (byOrigin != Library.UNKNOWN) {
                return byOrigin;
            }
            boolean assertj = cu.getImports().stream().anyMatch(i -> library(i.getNameAsString()) == Library.ASSERTJ);
            boolean truth = cu.getImports().stream().anyMatch(i -> library(i.getNameAsString()) == Library.TRUTH);
            return assertj == truth ? Library.UNKNOWN : assertj ? Library.ASSERTJ : Library.TRUTH;
        }

        private static Library library(String name) {
            if (name == null) {
                return Library.UNKNOWN;
            }
            if (name.startsWith("org.assertj.")) {
                return Library.ASSERTJ;
            }
            return name.startsWith("com.google.common.truth.") ? Library.TRUTH : Library.UNKNOWN;
        }
    }
}
