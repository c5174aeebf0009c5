// Java's default for a double, one input (16 hex digits, the IEEE 754 bits) a line:
// Double.toString(x) (JDK 17 and older: not always the shortest digits, JDK-4511638).
import java.io.*;
public class Probe {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        for (String line; (line = in.readLine()) != null; ) {
            out.println(Double.toString(Double.longBitsToDouble(Long.parseUnsignedLong(line.trim(), 16))));
        }
        out.flush();
    }
}
