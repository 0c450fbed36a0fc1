// sy_route_dor_mesh: route computation for a 2-D mesh, dimension order (x first, then y), the
// twin of sy::RoutingUnit on a mesh whose two dimensions have 3 or more routers. Ports are
// numbered as sy::Topology numbers them: 0 x+, 1 x-, 2 y+, 3 y-; port 4 is the ejection output.
// Every VC of the output may be taken (a mesh needs no dateline classes).
// Combinational.
module sy_route_dor_mesh #(
  parameter int unsigned CW = 4,  // coordinate width
  parameter int unsigned OW = 3   // output index width (>= 3)
) (
  input  logic [CW-1:0] x_i,      // this router
  input  logic [CW-1:0] y_i,
  input  logic [CW-1:0] dst_x_i,  // the header's destination
  input  logic [CW-1:0] dst_y_i,
  output logic [OW-1:0] port_o
);
  always_comb begin
    if (dst_x_i > x_i) port_o = OW'(0);
    else if (dst_x_i < x_i) port_o = OW'(1);
    else if (dst_y_i > y_i) port_o = OW'(2);
    else if (dst_y_i < y_i) port_o = OW'(3);
    else port_o = OW'(4);
  end
endmodule
