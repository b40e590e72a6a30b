import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import weka.classifiers.Classifier;
import weka.classifiers.bayes.BayesNet;
import weka.core.Attribute;
import weka.core.FastVector;
import weka.core.Instance;
import weka.core.Instances;
import weka.core.Utils;
import weka.experiment.ClassifierSplitEvaluator;
import weka.experiment.RandomSplitResultProducer;
import weka.experiment.ResultListener;
import weka.experiment.ResultProducer;

/**
 * Batched Weka 3.6 oracle: one JVM evaluates many classifiers on many splits.
 *
 * Input (a job file, or stdin with "-"), one directive per line, tab-separated,
 * '#' starts a comment:
 *
 *   CLF  key  classname  [options...]      a classifier spec (Weka command-line options, space-separated)
 *   SPLIT job  data.arff  train  test       train/test row indices (0-based, comma-separated, in the
 *                                          order the training set is to be built: order matters to IB1
 *                                          ties and to VotedPerceptron's shuffle)
 *   TT   job  train.arff  test.arff         a training file and a test file
 *   CV   job  data.arff  folds  seed        Weka's own cross-validation (Evaluation.crossValidateModel:
 *                                          randomize(new Random(seed)), stratify, trainCV(folds, i, random)),
 *                                          one job per fold: "<job>/<i>"; row indices are reported
 *
 *   RUN  job  data.arff  labels  order     one run of k-fold cv given by each row's fold label
 *                                          (comma-separated ints, one per row); fold f = rows labelled f
 *                                          (test, ascending), training = the other rows, ascending if
 *                                          order is "asc", or shuffled per fold as trainCV does if order
 *                                          is "shuffle:<seed>" (one java.util.Random per RUN line,
 *                                          train.randomize(random) for fold 0, 1, ...); jobs "<job>/<f>"
 *
 *   RSPLIT job  data.arff  percent  runs   the Experimenter's random train/test splits: Weka's own
 *                                          RandomSplitResultProducer (-P percent, data randomized) runs
 *                                          doRun(run) for each run in "runs" (comma-separated, or a range
 *                                          "first-last"); one job per run: "<job>/<run>"; row indices are
 *                                          reported (-p), in the order of Weka's training and test sets
 *
 * Every CLF declared before a job line is run on it. The class is the last attribute.
 *
 * Output (stdout), tab-separated:
 *   F  job  clf  n_test  correct  unclassified  train_ms
 *   P  job  clf  position  row  actual  predicted  p1      (only with -p; predicted -1 = unclassified,
 *                                                           p1 = predicted probability of class index 1)
 *   T  job  clf  structure                                 (only with -s, for BayesNet: parents per node)
 *   I  job  train_rows  test_rows                          (CV and RSPLIT jobs with -p: Weka's rows)
 *   E  job  clf  message                                   (buildClassifier threw: e.g. VotedPerceptron on 3 classes)
 *   O  clf  classname options                              (each CLF's effective options, getOptions())
 *
 * Usage: java -cp weka.jar:. WekaBatch [-p] [-s] jobs.tsv
 */
public class WekaBatch {

    static final Map<String, Instances> CACHE = new HashMap<String, Instances>();

    static Instances load(String path) throws Exception {
        Instances data = CACHE.get(path);
        if (data == null) {
            BufferedReader r = new BufferedReader(new FileReader(path));
            data = new Instances(r);
            r.close();
            data.setClassIndex(data.numAttributes() - 1);
            CACHE.put(path, data);
        }
        return data;
    }

    static int[] parseIdx(String s) {
        if (s.isEmpty()) return new int[0];
        String[] parts = s.split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) out[i] = Integer.parseInt(parts[i].trim());
        return out;
    }

    static Instances subset(Instances data, int[] rows) {
        Instances out = new Instances(data, rows.length);
        for (int r : rows) out.add(data.instance(r));
        return out;
    }

    static String join(int[] a) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < a.length; i++) {
            if (i > 0) b.append(',');
            b.append(a[i]);
        }
        return b.toString();
    }

    static String structure(BayesNet bn) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < bn.getNrOfNodes(); i++) {
            if (i > 0) b.append(' ');
            b.append(i).append(':');
            int np = bn.getNrOfParents(i);
            for (int j = 0; j < np; j++) {
                if (j > 0) b.append(',');
                b.append(bn.getParent(i, j));
            }
        }
        return b.toString();
    }

    static boolean printPred = false, printStruct = false;
    static PrintWriter out;

    /** Train every classifier on train, evaluate on test as weka.classifiers.Evaluation does. */
    static void run(String job, List<String[]> clfs, Instances train, Instances test, int[] testRows)
            throws Exception {
        for (String[] spec : clfs) {
            String key = spec[0];
            String[] opts = new String[spec.length - 2];
            System.arraycopy(spec, 2, opts, 0, opts.length);
            Classifier c = Classifier.forName(spec[1], opts);
            long t0 = System.nanoTime();
            try {
                c.buildClassifier(new Instances(train));
            } catch (Exception e) {
                // E  job  clf  message: the classifier cannot handle this training set.
                out.println("E\t" + job + "\t" + key + "\t" + String.valueOf(e.getMessage()).replace('\n', ' '));
                continue;
            }
            long ms = (System.nanoTime() - t0) / 1000000L;
            int correct = 0, unclassified = 0;
            StringBuilder preds = printPred ? new StringBuilder() : null;
            for (int i = 0; i < test.numInstances(); i++) {
                Instance inst = test.instance(i);
                // Evaluation.evaluateModelOnce: predict on a copy with the class set missing.
                Instance classMissing = (Instance) inst.copy();
                classMissing.setDataset(inst.dataset());
                classMissing.setClassMissing();
                double[] dist = c.distributionForInstance(classMissing);
                int pred = Utils.maxIndex(dist);
                if (dist[pred] <= 0) {
                    pred = -1;
                    unclassified++;
                }
                int actual = (int) inst.classValue();
                if (pred == actual) correct++;
                if (printPred) {
                    double p1 = dist.length > 1 ? dist[1] : Double.NaN;
                    preds.append("P\t").append(job).append('\t').append(key).append('\t').append(i).append('\t')
                         .append(testRows == null ? i : testRows[i]).append('\t').append(actual).append('\t')
                         .append(pred).append('\t').append(p1).append('\n');
                }
            }
            out.println("F\t" + job + "\t" + key + "\t" + test.numInstances() + "\t" + correct + "\t"
                        + unclassified + "\t" + ms);
            if (printPred) out.print(preds);
            if (printStruct && c instanceof BayesNet) {
                out.println("T\t" + job + "\t" + key + "\t" + structure((BayesNet) c));
            }
        }
    }

    /**
     * A parallel data set (id, class) with the rows of data0 whose class is known: the same shuffles
     * and stratification as data0 (they depend only on the number of rows and their classes).
     */
    static Instances idsOf(Instances data0, boolean keepMissingClass) {
        FastVector atts = new FastVector(2);
        atts.addElement(new Attribute("id"));
        atts.addElement(data0.classAttribute().copy());
        Instances ids = new Instances(data0.relationName(), atts, data0.numInstances());
        ids.setClassIndex(1);
        for (int i = 0; i < data0.numInstances(); i++) {
            if (!keepMissingClass && data0.instance(i).classIsMissing()) continue;
            Instance x = new Instance(2);
            x.setDataset(ids);
            x.setValue(0, i);
            if (data0.instance(i).classIsMissing()) x.setClassMissing();
            else x.setValue(1, data0.instance(i).classValue());
            ids.add(x);
        }
        return ids;
    }

    static int[] idColumn(Instances ids) {
        int[] out = new int[ids.numInstances()];
        for (int j = 0; j < out.length; j++) out[j] = (int) ids.instance(j).value(0);
        return out;
    }

    /** A split evaluator that only records the training and test sets the result producer hands it. */
    static class Capture extends ClassifierSplitEvaluator {
        Instances train, test;

        @Override
        public Object[] getResult(Instances train, Instances test) {
            this.train = train;
            this.test = test;
            return new Object[0];
        }
    }

    /** Accepts every result and discards it. */
    static class Discard implements ResultListener {
        public String[] determineColumnConstraints(ResultProducer rp) { return null; }
        public void preProcess(ResultProducer rp) {}
        public void postProcess(ResultProducer rp) {}
        public void acceptResult(ResultProducer rp, Object[] key, Object[] result) {}
        public boolean isResultRequired(ResultProducer rp, Object[] key) { return true; }
    }

    /**
     * The Experimenter's random splits: RandomSplitResultProducer.doRun(run) on the (id, class) data set
     * (java.util.Random(run), Instances.randomize, per-class Utils.probRound of the training share,
     * training and test sets randomized again), then every classifier on the same rows of data0.
     */
    static void runRandomSplit(String job, List<String[]> clfs, Instances data0, double percent, int[] runs)
            throws Exception {
        Instances ids = idsOf(data0, true);
        Capture capture = new Capture();
        RandomSplitResultProducer producer = new RandomSplitResultProducer();
        producer.setInstances(ids);
        producer.setTrainPercent(percent);
        producer.setSplitEvaluator(capture);
        producer.setResultListener(new Discard());
        for (int run : runs) {
            producer.doRun(run);
            int[] tr = idColumn(capture.train), te = idColumn(capture.test);
            String rj = job + "/" + run;
            if (printPred) out.println("I\t" + rj + "\t" + join(tr) + "\t" + join(te));
            run(rj, clfs, subset(data0, tr), subset(data0, te), te);
        }
    }

    static int[] parseRuns(String s) {
        if (s.contains("-")) {
            String[] ab = s.split("-");
            int a = Integer.parseInt(ab[0].trim()), b = Integer.parseInt(ab[1].trim());
            int[] out = new int[b - a + 1];
            for (int i = 0; i < out.length; i++) out[i] = a + i;
            return out;
        }
        return parseIdx(s);
    }

    /** Weka's crossValidateModel folds; a parallel (id, class) data set tracks the rows. */
    static void runCV(String job, List<String[]> clfs, Instances data0, int folds, int seed) throws Exception {
        Instances data = new Instances(data0);
        data.deleteWithMissingClass();
        // Parallel data set with an id attribute and the same class values: the same shuffles.
        FastVector atts = new FastVector(2);
        atts.addElement(new Attribute("id"));
        atts.addElement(data.classAttribute().copy());
        Instances ids = new Instances("ids", atts, data.numInstances());
        ids.setClassIndex(1);
        int kept = 0;
        for (int i = 0; i < data0.numInstances(); i++) {
            if (data0.instance(i).classIsMissing()) continue;
            Instance x = new Instance(2);
            x.setDataset(ids);
            x.setValue(0, i);
            x.setValue(1, data0.instance(i).classValue());
            ids.add(x);
            kept++;
        }
        Random random = new Random(seed), randomIds = new Random(seed);
        data.randomize(random);
        ids.randomize(randomIds);
        if (data.classAttribute().isNominal()) {
            data.stratify(folds);
            ids.stratify(folds);
        }
        for (int i = 0; i < folds; i++) {
            Instances train = data.trainCV(folds, i, random);
            Instances trainIds = ids.trainCV(folds, i, randomIds);
            Instances test = data.testCV(folds, i);
            Instances testIds = ids.testCV(folds, i);
            int[] tr = new int[trainIds.numInstances()], te = new int[testIds.numInstances()];
            for (int j = 0; j < tr.length; j++) tr[j] = (int) trainIds.instance(j).value(0);
            for (int j = 0; j < te.length; j++) te[j] = (int) testIds.instance(j).value(0);
            String fj = job + "/" + i;
            if (printPred) out.println("I\t" + fj + "\t" + join(tr) + "\t" + join(te));
            run(fj, clfs, train, test, te);
        }
    }

    public static void main(String[] args) throws Exception {
        String path = null;
        for (String a : args) {
            if (a.equals("-p")) printPred = true;
            else if (a.equals("-s")) printStruct = true;
            else path = a;
        }
        if (path == null) {
            System.err.println("usage: WekaBatch [-p] [-s] jobs.tsv|-");
            System.exit(2);
        }
        out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out), 1 << 16));
        BufferedReader in = path.equals("-") ? new BufferedReader(new InputStreamReader(System.in))
                                             : new BufferedReader(new FileReader(path));
        List<String[]> clfs = new ArrayList<String[]>();
        String line;
        long t0 = System.nanoTime();
        int jobs = 0;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty() || line.startsWith("#")) continue;
            String[] f = line.split("\t", -1);
            if (f[0].equals("CLF")) {
                String[] opts = f.length > 3 && !f[3].isEmpty() ? f[3].trim().split(" +") : new String[0];
                String[] spec = new String[2 + opts.length];
                spec[0] = f[1];
                spec[1] = f[2];
                System.arraycopy(opts, 0, spec, 2, opts.length);
                clfs.add(spec);
                Classifier c = Classifier.forName(spec[1], opts.clone());
                out.println("O\t" + spec[0] + "\t" + spec[1] + " "
                            + Utils.joinOptions(((weka.core.OptionHandler) c).getOptions()));
            } else if (f[0].equals("SPLIT")) {
                Instances data = load(f[2]);
                int[] tr = parseIdx(f[3]), te = parseIdx(f[4]);
                run(f[1], clfs, subset(data, tr), subset(data, te), te);
                jobs++;
            } else if (f[0].equals("RUN")) {
                Instances data = load(f[2]);
                int[] labels = parseIdx(f[3]);
                int k = 0;
                for (int l : labels) k = Math.max(k, l + 1);
                Random random = f[4].startsWith("shuffle:") ? new Random(Long.parseLong(f[4].substring(8))) : null;
                for (int fold = 0; fold < k; fold++) {
                    int nTest = 0;
                    for (int l : labels) if (l == fold) nTest++;
                    int[] tr = new int[labels.length - nTest], te = new int[nTest];
                    for (int i = 0, a = 0, b = 0; i < labels.length; i++) {
                        if (labels[i] == fold) te[b++] = i; else tr[a++] = i;
                    }
                    Instances train = subset(data, tr);
                    if (random != null) train.randomize(random);
                    run(f[1] + "/" + fold, clfs, train, subset(data, te), te);
                    jobs++;
                }
            } else if (f[0].equals("RSPLIT")) {
                int[] runs = parseRuns(f[4]);
                runRandomSplit(f[1], clfs, load(f[2]), Double.parseDouble(f[3]), runs);
                jobs += runs.length;
            } else if (f[0].equals("TT")) {
                run(f[1], clfs, load(f[2]), load(f[3]), null);
                jobs++;
            } else if (f[0].equals("CV")) {
                runCV(f[1], clfs, load(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4]));
                jobs++;
            } else {
                throw new IllegalArgumentException("unknown directive: " + f[0]);
            }
        }
        out.flush();
        System.err.printf("WekaBatch: %d jobs, %d classifiers, %.2f s in main%n", jobs, clfs.size(),
                          (System.nanoTime() - t0) / 1e9);
    }
}
