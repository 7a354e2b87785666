package io.github.odrust.maven.repair.id;

import static io.github.odrust.maven.repair.id.DexFix.reason;
import static io.github.odrust.maven.repair.id.Src.spans;

import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.Statement;
import io.github.odrust.maven.repair.id.DexFix.Result;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * DexFix's ChangeContainsExactly rewrite: an assertion of an exact order becomes order-insensitive
 * (AssertJ, Hamcrest, Truth).
 */
final class ChangeContainsExactly {
    private ChangeContainsExactly() {}

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

    enum Library {
        ASSERTJ,
        TRUTH,
        UNKNOWN
    }

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
    static List<Result> candidates(String source, int line) {
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
                    Library lib = ASSERTJ.containsKey(name) ? assertionLibrary(s, c) : Library.TRUTH;
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
            String origin = staticOrigin(s, name);
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

    /**
     * The class a statically imported method {@code name} comes from: its single static import,
     * else a Hamcrest class imported on demand that has it; null when neither.
     */
    private static String staticOrigin(Src s, String name) {
        Optional<String> single = s.staticSingle(name);
        if (single.isPresent()) {
            return single.get();
        }
        for (ImportDeclaration i : s.cu.getImports()) {
            if (i.isStatic() && i.isAsterisk() && hamcrestHas(i.getNameAsString(), name)) {
                return i.getNameAsString();
            }
        }
        return null;
    }

    /** Whether the Hamcrest class {@code className} has the matcher {@code method} (of those DexFix rewrites). */
    private static boolean hamcrestHas(String className, String method) {
        if (className.equals(MATCHERS)) {
            return HAMCREST.containsKey(method) || HAMCREST.values().stream().anyMatch(t -> t[0].equals(method));
        }
        for (Map.Entry<String, String[]> e : HAMCREST.entrySet()) {
            if (className.equals(COLLECTION + e.getValue()[1]) && method.equals(e.getKey())
                    || className.equals(COLLECTION + e.getValue()[2]) && method.equals(e.getValue()[0])) {
                return true;
            }
        }
        return false;
    }

    /** Whose assertion a chain like {@code assertThat(x).containsExactly(..)} is, from its first call and the imports. */
    private static Library assertionLibrary(Src s, MethodCallExpr c) {
        Expression root = c;
        while (root instanceof MethodCallExpr
                && ((MethodCallExpr) root).getScope().isPresent()
                && ((MethodCallExpr) root).getScope().get() instanceof MethodCallExpr) {
            root = ((MethodCallExpr) root).getScope().get();
        }
        MethodCallExpr first = (MethodCallExpr) root;
        String origin;
        if (first.getScope().isPresent()) {
            origin = s.classOf(first.getScope().get());
        } else {
            origin = staticOrigin(s, first.getNameAsString());
        }
        Library byOrigin = library(origin);
        if (byOrigin != Library.UNKNOWN) {
            return byOrigin;
        }
        boolean assertj = s.cu.getImports().stream().anyMatch(i -> library(i.getNameAsString()) == Library.ASSERTJ);
        boolean truth = s.cu.getImports().stream().anyMatch(i -> library(i.getNameAsString()) == Library.TRUTH);
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
