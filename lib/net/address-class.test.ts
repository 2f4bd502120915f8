import { describe, expect, it } from "vitest";
import { classifyAddress, inNetwork, type AddressClass } from "./address-class";

// Every special range, its edges, and the addresses just outside it (which are public).

const cases: [string, AddressClass | null][] = [
  // IPv4
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "reserved"],
  ["0.255.255.255", "reserved"],
  ["1.0.0.0", "public"],
  ["9.255.255.255", "public"],
  ["10.0.0.0", "private"],
  ["10.255.255.255", "private"],
  ["11.0.0.0", "public"],
  ["100.63.255.255", "public"],
  ["100.64.0.0", "private"],
  ["100.100.100.200", "private"],
  ["100.127.255.255", "private"],
  ["100.128.0.0", "public"],
  ["126.255.255.255", "public"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["128.0.0.0", "public"],
  ["169.253.255.255", "public"],
  ["169.254.0.1", "link-local"],
  ["169.254.169.254", "link-local"],
  ["169.255.0.0", "public"],
  ["172.15.255.255", "public"],
  ["172.16.0.0", "private"],
  ["172.31.255.255", "private"],
  ["172.32.0.0", "public"],
  ["192.0.0.8", "reserved"],
  ["192.0.1.0", "public"],
  ["192.0.2.1", "reserved"],
  ["192.88.99.1", "reserved"],
  ["192.167.255.255", "public"],
  ["192.168.0.1", "private"],
  ["192.168.255.255", "private"],
  ["192.169.0.0", "public"],
  ["198.17.255.255", "public"],
  ["198.18.0.0", "reserved"],
  ["198.19.255.255", "reserved"],
  ["198.20.0.0", "public"],
  ["198.51.100.7", "reserved"],
  ["203.0.113.9", "reserved"],
  ["8.8.8.8", "public"],
  ["223.255.255.255", "public"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.255", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.254", "reserved"],
  ["255.255.255.255", "broadcast"],
  // IPv6
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["::2", "reserved"],
  ["[::1]", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf:ffff::1", "link-local"],
  ["fec0::1", "private"],
  ["fc00::1", "private"],
  ["fd00:ec2::254", "private"],
  ["fdff:ffff::1", "private"],
  ["fbff:ffff::1", "reserved"],
  ["ff02::1", "multicast"],
  ["ff0e::1", "multicast"],
  ["2001:db8::1", "reserved"],
  ["2001::1", "reserved"],
  ["2001:1ff:ffff::1", "reserved"],
  ["2001:200::1", "public"],
  ["2606:4700:4700::1111", "public"],
  ["2a00:1450:4001::200e", "public"],
  ["3fff::1", "reserved"],
  ["5f00::1", "reserved"],
  ["100::1", "reserved"],
  ["4000::1", "reserved"],
  ["1fff:ffff::1", "reserved"],
  // IPv4 forms inside IPv6: the class of the IPv4 address they reach
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::FFFF:7F00:0001", "loopback"],
  ["::ffff:10.1.2.3", "private"],
  ["::ffff:169.254.169.254", "link-local"],
  ["::ffff:0.0.0.0", "unspecified"],
  ["::ffff:255.255.255.255", "broadcast"],
  ["::ffff:224.0.0.1", "multicast"],
  ["::ffff:100.64.0.1", "private"],
  ["::ffff:8.8.8.8", "public"],
  ["0:0:0:0:0:ffff:127.0.0.1", "loopback"],
  ["::127.0.0.1", "reserved"],
  ["64:ff9b::127.0.0.1", "loopback"],
  ["64:ff9b::a9fe:a9fe", "link-local"],
  ["64:ff9b::8.8.8.8", "public"],
  ["64:ff9b:1::1", "private"],
  ["2002:7f00:1::", "loopback"],
  ["2002:a9fe:a9fe::1", "link-local"],
  ["2002:0808:0808::1", "public"],
  // Not addresses
  ["localhost", null],
  ["example.org", null],
  ["127.1", null],
  ["", null],
];

describe("classifyAddress", () => {
  it.each(cases)("%s is %s", (address, want) => {
    expect(classifyAddress(address)).toBe(want);
  });
});

describe("inNetwork", () => {
  const net = (value: bigint, family: 4 | 6, bits: number) => ({ value, family, bits });
  it.each([
    ["10.1.2.3", net(0x0a010000n, 4, 16), true],
    ["10.2.0.0", net(0x0a010000n, 4, 16), false],
    ["::ffff:10.1.2.3", net(0x0a010000n, 4, 16), true],
    ["::1", net(1n, 6, 128), true],
    ["::2", net(1n, 6, 128), false],
    ["127.0.0.1", net(1n, 6, 128), false],
  ] as const)("%s in %o: %s", (address, network, want) => {
    expect(inNetwork(address, network)).toBe(want);
  });
});
